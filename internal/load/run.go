package load

import (
	"context"
	"errors"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/engine"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Run drives the scenario's phases in order. It returns when the last phase
// ends (each phase is bounded by its schedule plus the drain time), or soon
// after ctx is cancelled, with the phases run so far and ctx's error.
func Run(ctx context.Context, sc *scenario.Scenario, opts Options) (*record.Result, error) {
	pl, err := prepare(ctx, sc, opts)
	if err != nil {
		return nil, err
	}
	res := &record.Result{}
	for _, p := range pl.phases {
		if ctx.Err() != nil {
			break
		}
		ph, err := engine.RunPhase(ctx, &pl.Plan, p, opts.Progress)
		if err != nil {
			return nil, err
		}
		res.Add(ph)
	}
	res.Merge()
	return res, ctx.Err()
}

// Saturate finds the service's closed-loop capacity: the scenario's last
// recorded phase's requests, sent by concurrency workers back to back for d.
func Saturate(ctx context.Context, sc *scenario.Scenario, opts Options, concurrency int, d time.Duration) (*record.Report, error) {
	if concurrency < 1 || d <= 0 {
		return nil, errors.New("saturate: concurrency must be ≥ 1 and the duration > 0")
	}
	pl, err := prepare(ctx, sc, opts)
	if err != nil {
		return nil, err
	}
	var src *scenario.Phase
	for _, p := range pl.phases {
		if p.Record || src == nil {
			src = p
		}
	}
	p := *src
	p.Name, p.Model, p.Record = "saturation", scenario.Closed, true
	p.Workers, p.Duration, p.Requests, p.Iterations = concurrency, d, 0, 0
	ph, err := engine.RunPhase(ctx, &pl.Plan, &p, opts.Progress)
	if err != nil {
		return nil, err
	}
	res := &record.Result{}
	res.Add(ph)
	return res.Phases[0], ctx.Err()
}
