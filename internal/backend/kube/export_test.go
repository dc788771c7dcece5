package kube

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Trials is what checkResume asks of an experiment's Session.
type Trials interface {
	Trial(ctx context.Context, spec trial.Spec, what string) (*trial.Result, bool, error)
}

// newSession makes an experiment Session of app a whose trials run through
// b and are stored in st. session_test.go (package kube_test) sets it:
// package kube cannot import experiment, which chooses kube.
var newSession func(t *testing.T, a *app.App, b trial.Backend, st *store.Store) Trials

// UseSessions sets newSession.
func UseSessions(f func(t *testing.T, a *app.App, b trial.Backend, st *store.Store) Trials) {
	newSession = f
}
