package experiment

import (
	"context"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/owner"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Before its trial starts anything, a run becomes one of its database's
// owner (what the engines' sweeps and labels use), with --sweep-stale's age.
func TestRunOwnsWhatItStartsAsItsDatabase(t *testing.T) {
	st := openStore(t)
	var during string
	s := &Session{Store: st, Prepare: fakePrepare, Base: trial.Spec{App: "fake.yaml", AppName: "fake", JVM: "default"},
		SweepStale: 36 * time.Hour,
		Run: func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
			during = owner.ID()
			return &trial.Result{Spec: sp, Verdict: trial.OK, StartedAt: time.Now()}, nil
		}}
	spec := s.Base
	spec.MemoryBytes, spec.CPUs = 256*mi, 1
	if _, err := RunOne(context.Background(), s, spec, nil); err != nil {
		t.Fatal(err)
	}
	want, err := owner.ForDB(st.Path())
	if err != nil || during != want || owner.Stale() != 36*time.Hour {
		t.Errorf("the trial ran as owner %q (stale %v), want the database's %q (%v) and 36h", during, owner.Stale(), want, err)
	}
}
