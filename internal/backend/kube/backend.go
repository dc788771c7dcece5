package kube

import (
	"context"
	"io"
	"path/filepath"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/owner"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Options are the Kubernetes backend's settings, as the flags give them
// (docs/kubernetes.md).
type Options struct {
	Namespace, Kubeconfig, AgentImage string
	// Pending is how long a pod may stay unschedulable.
	Pending time.Duration
	// DryRun writes the Job manifests instead of applying them: "-" for
	// Manifests, or a directory.
	DryRun    string
	Manifests io.Writer
	// SweepStale, when set, lets the sweep remove anyone's Jobs older than
	// it (--sweep-stale), not only this database's gone runs'.
	SweepStale time.Duration
}

// Backend is the Kubernetes backend readied for one experiment: each trial
// a Job whose agent runs trial.Run in the pod (trial.Backend).
type Backend struct {
	run func(ctx context.Context, spec trial.Spec, o trial.Options) (*trial.Result, error)
	// Batch, when set, is how many trials may be asked for at once: a dry
	// run runs nothing, so it writes every batched trial's Job.
	Batch int
	// Swept is how many Jobs an earlier run on the same database left in
	// Namespace, now removed.
	Swept     int
	Namespace string
}

// ConfigError is a kubeconfig or cluster that cannot be reached: the
// user's to fix.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Open readies the backend for app a (its image runs in each Job) with
// the results kept in db, beside which the Jobs' owner is recorded: it
// connects, and removes the Jobs that gone runs on the same database left
// (SweepRule); a dry run connects to nothing and records nothing.
func Open(ctx context.Context, a *app.App, db string, o Options) (*Backend, error) {
	jobs := JobOptions{Namespace: o.Namespace, Image: a.Image, AgentImage: o.AgentImage,
		Owner: owner.New(), Session: NewSessionID(), Process: owner.Self().String()}
	if a.Container != nil {
		jobs.User = a.Container.User
	}
	if o.DryRun != "" {
		if jobs.Namespace == "" {
			jobs.Namespace = "default"
		}
		d := &DryRun{App: a, Jobs: jobs, Out: o.Manifests}
		if o.DryRun != "-" {
			d.Dir = o.DryRun
		}
		return &Backend{run: d.Run, Batch: 1 << 16, Namespace: jobs.Namespace}, nil
	}
	client, ns, err := Connect(o.Kubeconfig)
	if err != nil {
		return nil, &ConfigError{err}
	}
	if jobs.Namespace == "" {
		jobs.Namespace = ns
	}
	if jobs.Owner, err = owner.ForDB(absPath(db)); err != nil {
		return nil, err
	}
	n, err := Sweep(ctx, client, jobs.Namespace, SweepRule{Owner: jobs.Owner, Session: jobs.Session, Stale: o.SweepStale})
	if err != nil {
		return nil, err
	}
	r := &Runner{Client: client, App: a, Jobs: jobs, Pending: o.Pending}
	return &Backend{run: r.Run, Swept: n, Namespace: jobs.Namespace}, nil
}

// Run runs one prepared trial as a Job (or writes its manifest, in a dry
// run), with o's progress and log directory (Runner.Run). The app is the
// one Open was given, not a: the Jobs' image and owner, and the sweep of
// an earlier run's Jobs, were fixed for it there (the Session passes that
// same app).
func (b *Backend) Run(ctx context.Context, spec trial.Spec, _ *trial.App, o trial.Options) (*trial.Result, error) {
	return b.run(ctx, spec, o)
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
