package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// MinMemPlan searches the smallest OK limit for every (CPUs, JVM mode)
// pair, storing each trial as it ends.
type MinMemPlan struct {
	Base         trial.Spec
	CPUs         []float64
	JVMs         []string
	Search       Search
	Prepare      PrepareFunc
	Trial        RunFunc
	Store        Store // nil = keep nothing
	ExperimentID int64
	Log          io.Writer // one line per trial; nil = silent
}

// Check prepares every mode at the top of the range, so a bad mode, JDK or
// option set is reported before any trial runs (or anything is stored).
func (p MinMemPlan) Check() error {
	for _, cpus := range p.CPUs {
		for _, jvm := range p.JVMs {
			spec := p.Base
			spec.CPUs, spec.JVM, spec.MemoryBytes, spec.JVMOptions = cpus, jvm, p.Search.gridHigh(), nil
			if _, err := p.Prepare.apply(spec); err != nil {
				return &PrepareError{Cell: Cell{JVM: jvm, CPUs: cpus, MemoryBytes: spec.MemoryBytes, Java: spec.Java}, Err: err}
			}
		}
	}
	return nil
}

// ModeResult is one pair's search.
type ModeResult struct {
	JVM     string
	CPUs    float64
	Outcome *Outcome
}

// Run searches the pairs in order. On error the pairs done so far, and the
// trials of the one interrupted, are returned.
func (p MinMemPlan) Run(ctx context.Context) ([]ModeResult, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	var out []ModeResult
	for _, cpus := range p.CPUs {
		for _, jvm := range p.JVMs {
			runs := map[int64]int{}
			fn := func(ctx context.Context, mem int64) (*trial.Result, error) {
				spec := p.Base
				spec.CPUs, spec.JVM, spec.MemoryBytes, spec.JVMOptions = cpus, jvm, mem, nil
				// Repeats of one limit are distinct trials, with distinct keys.
				spec.Repeat = runs[mem]
				runs[mem]++
				return p.trial(ctx, spec, "minmem")
			}
			o, err := MinMem(ctx, p.Search, fn)
			if o != nil {
				out = append(out, ModeResult{JVM: jvm, CPUs: cpus, Outcome: o})
			}
			if err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// trial prepares and runs one trial and stores it; label starts its log
// line ("minmem" for the search, "soak" for the proof).
func (p MinMemPlan) trial(ctx context.Context, spec trial.Spec, label string) (*trial.Result, error) {
	t0 := time.Now()
	prepared, err := p.Prepare.apply(spec)
	var refused *plan.RefusedError
	switch {
	case errors.As(err, &refused):
		// The launcher cannot plan options at this limit: a KO that costs
		// no trial, stored so the grid shows why.
		return p.keep(refusedResult(p.refSpec(spec), err), t0, label)
	case err != nil:
		return nil, fmt.Errorf("preparing the trial at %s: %w", size.Format(spec.MemoryBytes), err)
	}
	r, err := p.Trial(ctx, prepared)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // interrupted: not a verdict, not stored
	}
	if r.Verdict == trial.KO && r.Kind == trial.KindError {
		return nil, fmt.Errorf("trial at %s failed: %s", size.Format(spec.MemoryBytes), firstOr(r.Failed, "jvmfit error"))
	}
	return p.keep(r, t0, label)
}

// refSpec is spec with the mode's derived fields (java, JDK, rate, SLO) as
// prepared at the top of the range, but no options: a refused limit has none.
func (p MinMemPlan) refSpec(spec trial.Spec) trial.Spec {
	top := spec
	top.MemoryBytes = p.Search.gridHigh()
	t, err := p.Prepare.apply(top)
	if err != nil {
		return spec
	}
	t.MemoryBytes, t.JVMOptions = spec.MemoryBytes, nil
	return t
}

// keep stores a finished trial and logs it.
func (p MinMemPlan) keep(r *trial.Result, t0 time.Time, label string) (*trial.Result, error) {
	sp := r.Spec
	if p.Store != nil {
		id, err := p.Store.SaveTrial(p.ExperimentID, r)
		if err != nil {
			return nil, fmt.Errorf("saving the trial at %s: %w", size.Format(sp.MemoryBytes), err)
		}
		r.ID = id
	}
	if p.Log != nil {
		fmt.Fprintf(p.Log, "%s cpus=%s jvm=%s %s: %s in %s\n", label, fmtCPUs(sp.CPUs), sp.JVM, limitText(r), resultText(r), time.Since(t0).Round(100*time.Millisecond))
	}
	return r, nil
}

// KindRefused marks a KO trial that never ran because the launcher refused
// to plan options at its limit.
const KindRefused = "refused"

func refusedResult(spec trial.Spec, err error) *trial.Result {
	now := time.Now()
	return &trial.Result{Key: spec.Key(), Spec: spec, Env: trial.CollectEnv(spec), StartedAt: now, EndedAt: now,
		Verdict: trial.KO, Kind: KindRefused, Failed: []string{err.Error()}}
}

// Candidates turns the searches into what Recommend chooses from.
func Candidates(results []ModeResult) []Candidate {
	var cs []Candidate
	for _, m := range results {
		o := m.Outcome
		c := Candidate{JVM: m.JVM, CPUs: m.CPUs, MinOK: o.MinOK, Precision: o.Precision, NoiseBand: o.NoiseBand, Edge: o.MaxKO > 0}
		if r := o.last(o.MinOK); r != nil && r.Load != nil {
			c.Throughput = r.Load.Throughput
		}
		if r := o.last(o.MinOK); r != nil {
			c.Java, c.Footprint = r.Spec.Java, r.MemoryPeakBytes
		}
		cs = append(cs, c)
	}
	return cs
}

// last is the latest trial at a limit.
func (o *Outcome) last(mem int64) *trial.Result {
	for i := len(o.Trials) - 1; i >= 0; i-- {
		if o.Trials[i].MemoryBytes == mem {
			return o.Trials[i].Result
		}
	}
	return nil
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}
