package experiment

import (
	"context"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// jvmfit run goes through a Session: a taken port is retried with a fresh
// one (as in every experiment), and the trial is stored once, as an ended
// experiment of kind run named by the trial; an interrupted run stores
// nothing at all.
func TestRunOneRetriesATakenPortAndStoresOnce(t *testing.T) {
	st := openStore(t)
	runs := 0
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Session{Store: st, Prepare: fakePrepare, Base: trial.Spec{App: "fake.yaml", AppName: "fake", JVM: "default"},
		Run: func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
			runs++
			r := &trial.Result{Spec: sp, Verdict: trial.OK, StartedAt: started}
			if runs == 1 {
				r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindPortInUse, []string{"the app could not bind port 20001"}
			}
			return r, nil
		}}
	spec := s.Base
	spec.MemoryBytes, spec.CPUs = 256*mi, 1
	r, err := RunOne(context.Background(), s, spec, map[string]string{"memory": "256Mi"})
	if err != nil || r == nil || r.Verdict != trial.OK || runs != 2 || r.ID == 0 {
		t.Fatalf("run: %+v, %v after %d runs; want OK, stored, after one retry", r, err, runs)
	}
	rs, err := st.Trials(store.Filter{Kind: store.KindRun})
	if err != nil || len(rs) != 1 || rs[0].Verdict != trial.OK || rs[0].Experiment != "run-fake-20260102-030405" {
		t.Fatalf("stored %d run trials (%v): want the retry's OK in run-fake-20260102-030405", len(rs), err)
	}
	if e, err := st.Experiment(rs[0].Experiment); err != nil || e.Ended.IsZero() {
		t.Errorf("the run's experiment %+v is not ended (%v)", e, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	s2 := &Session{Store: st, Prepare: fakePrepare, Base: s.Base, Run: func(context.Context, trial.Spec) (*trial.Result, error) {
		cancel()
		return &trial.Result{Verdict: trial.KO, Kind: trial.KindExited}, nil
	}}
	if r, err := RunOne(ctx, s2, spec, nil); r != nil || err == nil {
		t.Fatalf("interrupted run: %+v, %v; want no trial and an error", r, err)
	}
	if es, _ := st.Experiments(); len(es) != 1 {
		t.Errorf("%d experiments after an interrupted run, want only the first run's", len(es))
	}
}
