//go:build linux

package engine

import (
	"context"
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// phaseRun is what the open or closed model reports of a phase's timing.
type phaseRun struct {
	start   time.Time
	span    time.Duration // for the achieved rate
	dropped int64
	target  float64
}

// RunPhase drives one phase on a fresh event loop and returns what it
// recorded. It returns when the phase's schedule and drain are over, or
// soon after ctx is cancelled.
func RunPhase(ctx context.Context, pl *Plan, p *scenario.Phase, progress io.Writer) (*record.Phase, error) {
	l, err := newLoop(ctx)
	if err != nil {
		return nil, err
	}
	defer l.close()
	names := make([]string, len(pl.Wires))
	for i, w := range pl.Wires {
		names[i] = w.Req.Name
	}
	rec := record.NewRecorder(names)
	stopProgress := record.StartProgress(progress, p.Name, p.Duration, rec)
	var pr *phaseRun
	if p.Model == scenario.Open {
		pr = pl.runOpen(l, p, rec)
	} else {
		pr = pl.runClosed(l, p, rec)
	}
	stopProgress()
	return &record.Phase{
		Name: p.Name, Model: p.Model, Record: p.Record, Rec: rec,
		Span: pr.span, Elapsed: max(rec.LastDone().Sub(pr.start), pr.span),
		Dropped: pr.dropped, Target: pr.target,
	}, nil
}
