//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/load"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
	"github.com/jvmfit/jvmfit/internal/sandbox"
)

// DefaultDeps wires the real sandbox (cgroups), load generator and probes.
func DefaultDeps() Deps {
	return Deps{Sandbox: realSandbox{}, Loader: realLoader{}, Prober: realProber{}, Services: realServices{}}
}

type realSandbox struct{}

func (realSandbox) Start(ctx context.Context, l Launch) (Process, error) {
	if l.Container != nil {
		if containers == nil {
			return nil, errNoContainers
		}
		return containers.Start(ctx, l)
	}
	p, err := sandbox.Start(ctx, sandbox.Spec{
		Name: l.Name, Argv: l.Argv, Env: l.Env, Dir: l.Dir,
		Limits:   cgroup.Spec{MemoryBytes: l.MemoryBytes, CPUs: l.CPUs, CPUSet: l.CPUSet},
		NoLimits: l.NoLimits, Stdout: l.Stdout, Stderr: l.Stderr,
	})
	if err != nil {
		return nil, err
	}
	return realProcess{p}, nil
}

type realProcess struct{ p *sandbox.Process }

func (r realProcess) Pid() int              { return r.p.Pid() }
func (r realProcess) Done() <-chan struct{} { return r.p.Done() }
func (r realProcess) Stop(grace time.Duration) Exit {
	return exitOf(r.p.Stop(grace))
}
func (r realProcess) Stalled() <-chan struct{} { return r.p.Stalled() }
func (r realProcess) Stall() string            { return r.p.Stall() }
func (r realProcess) MemoryPeak() (int64, error) {
	st, err := r.p.Stats()
	return st.Peak, err
}

func exitOf(e sandbox.Exit) Exit {
	return Exit{Code: e.Code, Signal: e.Signal, OOMKilled: e.OOMKilled}
}

type realLoader struct{}

func (realLoader) Prepare(path string, vars map[string]string) (Driver, error) {
	sc, err := scenario.Load(path, vars)
	if err != nil {
		return nil, err
	}
	return realDriver{sc}, nil
}

type realDriver struct{ sc *scenario.Scenario }

func loadOptions(o LoadOptions) load.Options {
	return load.Options{Base: o.Base, Rate: o.Rate, Warmup: o.Warmup, Duration: o.Duration, Progress: o.Progress}
}

func (d realDriver) Run(ctx context.Context, o LoadOptions) ([]*record.Report, *record.Report, error) {
	res, err := load.Run(ctx, d.sc, loadOptions(o))
	if res == nil {
		return nil, nil, err
	}
	return res.Phases, res.Total, err
}

// Saturation runs closed-loop at this concurrency for this long: enough
// workers to keep one or two CPUs busy on loopback, short enough to add
// little to a trial.
const (
	saturationWorkers  = 16
	saturationDuration = 10 * time.Second
)

func (d realDriver) Saturate(ctx context.Context, o LoadOptions) (*record.Report, error) {
	return load.Saturate(ctx, d.sc, loadOptions(o), saturationWorkers, saturationDuration)
}
