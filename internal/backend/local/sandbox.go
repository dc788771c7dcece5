//go:build linux

package local

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Sandbox starts the app in a fresh cgroup (internal/sandbox).
type Sandbox struct{}

// Start starts l's command with its limits (trial.Sandbox).
func (Sandbox) Start(ctx context.Context, l trial.Launch) (trial.Process, error) {
	p, err := sandbox.Start(ctx, sandbox.Spec{
		Name: l.Name, Argv: l.Argv, Env: l.Env, Dir: l.Dir,
		Limits:   cgroup.Spec{MemoryBytes: l.MemoryBytes, CPUs: l.CPUs, CPUSet: l.CPUSet, Pids: l.Pids},
		NoLimits: l.NoLimits, Stdout: l.Stdout, Stderr: l.Stderr,
	})
	if err != nil {
		return nil, err
	}
	return process{p}, nil
}

// process is a sandboxed process as a trial.Process.
type process struct{ p *sandbox.Process }

func (r process) Pid() int              { return r.p.Pid() }
func (r process) Done() <-chan struct{} { return r.p.Done() }
func (r process) Stop(grace time.Duration) trial.Exit {
	e := r.p.Stop(grace)
	return trial.Exit{Code: e.Code, Signal: e.Signal, OOMKilled: e.OOMKilled}
}
func (r process) Stalled() <-chan struct{} { return r.p.Stalled() }
func (r process) Stall() string            { return r.p.Stall() }
func (r process) MemoryPeak() (int64, error) {
	st, err := r.p.Stats()
	return st.Peak, err
}

// CgroupPath is the process's memory cgroup directory ("" without limits),
// which tests read beside the probes.
func (r process) CgroupPath() string { return r.p.CgroupPath() }
