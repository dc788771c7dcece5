package kube_test

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend/kube"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The resume tests drive a real Session whose Backend is Kubernetes.
func init() {
	kube.UseSessions(func(t *testing.T, a *app.App, b trial.Backend, st *store.Store) kube.Trials {
		s := &experiment.Session{App: a, Store: st, Backend: b,
			Prepare: func(sp trial.Spec) (trial.Spec, error) { return sp, nil }} // testSpec is prepared already
		if err := s.Begin(store.KindSweep, nil); err != nil {
			t.Fatal(err)
		}
		return s
	})
}
