package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// RunOne is `jvmfit run`: one trial through a Session, so that it gets what
// every experiment's trial gets (preparing, the port-in-use retry, the
// progress line, the log rule), stored as an experiment of kind run once
// the trial has ended, never reused from the store. An interrupted trial
// leaves nothing in the store. It returns the trial (nil when none
// ended) and, with a trial, an error only when storing it failed. A trial
// in which jvmfit failed is the run's answer, stored, not an error.
func RunOne(ctx context.Context, s *Session, spec trial.Spec, args any) (*trial.Result, error) {
	st := s.Store
	if err := s.claimOwner(st); err != nil { // while the trial sees no store
		return nil, err
	}
	s.Store, s.Fresh = nil, true // nothing is stored before the trial ends
	name := s.Name
	if err := s.Begin(store.KindRun, args); err != nil {
		return nil, err
	}
	defer s.removeEmptyLogDir()
	r, _, err := s.Trial(ctx, spec, "run")
	s.Store, s.Name = st, name
	if r == nil {
		return nil, err
	}
	if s.Name == "" {
		// A run is named and started by its trial.
		s.Name = fmt.Sprintf("run-%s-%s", r.Spec.AppName, r.StartedAt.Format("20060102-150405"))
	}
	if err := s.Begin(store.KindRun, args); err != nil {
		return r, err
	}
	r.Experiment = s.Name
	if err := s.keep(r, r.Key); err != nil {
		return r, err
	}
	return r, s.EndWith(nil)
}

// removeEmptyLogDir removes the run's log directory, and its parent, when
// no log was kept in them: a run that passed leaves nothing behind.
func (s *Session) removeEmptyLogDir() {
	if d := s.LogDir; d != "" && os.Remove(d) == nil {
		os.Remove(filepath.Dir(d))
	}
}
