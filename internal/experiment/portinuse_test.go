package experiment

import (
	"context"
	"errors"
	"testing"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A taken port is retried once, and the retry's verdict is the trial's.
func TestPortInUseIsRetriedOnceNotStoredAsKO(t *testing.T) {
	st := openStore(t)
	s := newSession(t, st, &fake{}, store.KindSweep)
	runs, taken := 0, 1
	s.Run = func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
		runs++
		r := &trial.Result{Spec: sp, Key: sp.Key(), Verdict: trial.OK}
		if taken > 0 {
			taken--
			r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindPortInUse, []string{"the app could not bind port 20001"}
		}
		return r, nil
	}
	spec := s.Base
	spec.MemoryBytes, spec.CPUs = 256*mi, 1
	r, _, err := s.Trial(context.Background(), spec, "t")
	if err != nil || r.Verdict != trial.OK || runs != 2 {
		t.Fatalf("err %v, verdict %s, %d runs: want OK after one retry", err, r.Verdict, runs)
	}
	if rs := stored(t, st, s); len(rs) != 1 || rs[0].Verdict != trial.OK {
		t.Fatalf("stored %d trials, want the retry's OK only", len(rs))
	}

	// Taken twice: no verdict to search on; the experiment stops, and the
	// stored trial is not reused by the rerun.
	runs, taken = 0, 2
	spec.MemoryBytes = 128 * mi
	_, _, err = s.Trial(context.Background(), spec, "t2")
	var te *TrialError
	if !errors.As(err, &te) || runs != 2 {
		t.Fatalf("err %v after %d runs: want a TrialError after two", err, runs)
	}
	if r, reused, err := s.Trial(context.Background(), spec, "t2 again"); err != nil || reused || r.Verdict != trial.OK {
		t.Fatalf("rerun: reused %v, err %v", reused, err)
	}
}
