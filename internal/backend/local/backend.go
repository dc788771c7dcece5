//go:build linux

// Package local is the backend that runs a trial's app on this machine, in
// a fresh cgroup of jvmfit's own with the trial's limits (internal/sandbox:
// start, limits, OOM and stall detection, cleanup on every path and its
// emergency hook), sampled by the probes from the host's /proc and the
// group's files.
package local

import (
	"context"

	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The local backend answers trial.Prepare's question of a host app: can
// this host's cgroups limit its trial at all.
func init() {
	trial.UseHostCheck(sandbox.CheckLimits)
}

// Backend runs trial.Run's steps with the cgroup Sandbox and the host's
// Prober.
type Backend struct{}

// Run runs one prepared trial of a host app (trial.Backend).
func (Backend) Run(ctx context.Context, spec trial.Spec, a *trial.App, o trial.Options) (*trial.Result, error) {
	return trial.Run(ctx, spec, a, Deps(o))
}

// Deps are the trial's collaborators on this machine, for callers that run
// trial.Run themselves (tests that swap one part).
func Deps(o trial.Options) trial.Deps { return o.Deps(Sandbox{}, Prober{}) }
