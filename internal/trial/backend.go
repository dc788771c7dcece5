package trial

import (
	"context"
	"io"
)

// Backend is where a trial's app runs: this machine's cgroups
// (internal/backend/local), a container engine (internal/backend/container)
// or a Kubernetes cluster (internal/backend/kube). Each is a package of its
// own that implements this one method; the experiment chooses one
// (experiment/backends.go) and asks it for every trial. A backend whose
// app jvmfit watches itself runs Run below with its Sandbox and Prober
// (Options.Deps); Kubernetes submits a Job whose agent runs Run in the pod
// with a Sandbox that attaches to the app container's JVM.
//
// Its contract is Run's, and backend/backendtest checks every backend
// against it: the app runs under spec's limits; a KO (an OOM kill among
// them) is a Result, not an error; every setting of the trial is read from
// spec (FullGCAtEnd, StopGrace); when ctx is cancelled Run returns
// ctx.Err() and no Result; and nothing the backend started (a process, a
// cgroup, a container, a Job) is left when it returns, on every path.
type Backend interface {
	Run(ctx context.Context, spec Spec, a *App, o Options) (*Result, error)
}

// Options are what an experiment gives each trial, whatever its backend.
type Options struct {
	// Progress gets one line per trial step ("ready in 2.1s"); nil = quiet.
	Progress io.Writer
	// LogDir keeps the app's output (Deps.LogDir); "" = a temp directory.
	LogDir string
}
