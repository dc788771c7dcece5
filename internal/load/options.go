package load

import (
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Options adjust a scenario for one run.
type Options struct {
	Base        string        // the target: replaces the base's scheme, host and port, and its path if Base has one
	Rate        float64       // if > 0, the rate of every open phase (replaces ramps)
	Duration    time.Duration // if > 0, the duration of every recorded phase (count limits dropped)
	Warmup      time.Duration // if > 0, the duration of unrecorded phases (one is added if none); < 0 drops them
	Workers     int           // if > 0, the workers of every recorded phase
	MaxInflight int           // if > 0, the in-flight cap of open phases
	Drain       time.Duration // wait for answers after a phase's schedule; 0 = scenario.DefaultDrain
	AllowRemote bool          // permit non-loopback targets
	Progress    io.Writer     // live progress line; nil = none
}

// applyOptions returns the phases as opts reshape them; in is unchanged.
func applyOptions(in []*scenario.Phase, opts Options) []*scenario.Phase {
	var out []*scenario.Phase
	hasWarmup := false
	for _, p := range in {
		// An unrecorded phase bounded by a count is set-up (seed 001 uploads
		// every file once); cutting it short would leave the service half
		// loaded, so --warmup resizes only the timed warm-ups.
		setup := !p.Record && (p.Requests > 0 || p.Iterations > 0)
		if !p.Record && !setup && opts.Warmup < 0 {
			continue
		}
		c := *p
		if !c.Record && !setup {
			hasWarmup = true
		}
		if opts.Rate > 0 && c.Model == scenario.Open {
			c.Rate, c.RampFrom, c.RampTo = opts.Rate, 0, 0
		}
		if opts.Duration > 0 && c.Record {
			c.Duration, c.Requests, c.Iterations = opts.Duration, 0, 0
		}
		if opts.Warmup > 0 && !c.Record && !setup {
			c.Duration, c.Requests, c.Iterations = opts.Warmup, 0, 0
		}
		if opts.Workers > 0 && c.Record {
			c.Workers = opts.Workers
		}
		if opts.MaxInflight > 0 {
			c.MaxInflight = opts.MaxInflight
		}
		out = append(out, &c)
	}
	if opts.Warmup > 0 && !hasWarmup {
		for i, p := range out {
			if p.Record {
				w := *p
				w.Name, w.Record = "warmup", false
				w.Duration, w.Requests, w.Iterations = opts.Warmup, 0, 0
				out = append(out[:i:i], append([]*scenario.Phase{&w}, out[i:]...)...)
				break
			}
		}
	}
	return out
}
