//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/load"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Deps, for a backend that runs the trial's steps where jvmfit runs (or
// in its pod), are its Sandbox and Prober with the real load generator and
// services, and o's progress and log directory.
func (o Options) Deps(sb Sandbox, pr Prober) Deps {
	return Deps{Sandbox: sb, Prober: pr, Loader: realLoader{}, Services: realServices{}, Progress: o.Progress, LogDir: o.LogDir}
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
