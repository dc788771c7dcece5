package experiment

import (
	"context"
	"fmt"
	"sync"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// MinMemPlan searches the smallest OK limit for every (CPUs, JVM mode)
// pair, through a Session.
type MinMemPlan struct {
	CPUs   []float64
	JVMs   []string
	Search Search
}

// spec is the trial of one pair at one limit.
func (p MinMemPlan) spec(s *Session, cpus float64, jvm string, mem int64) trial.Spec {
	spec := s.Base
	spec.CPUs, spec.JVM, spec.MemoryBytes, spec.JVMOptions = cpus, jvm, mem, nil
	return spec
}

// Check prepares every mode at the top of the range, so a bad mode, JDK or
// option set is reported before any trial runs (or anything is stored).
func (p MinMemPlan) Check(s *Session) error {
	for _, cpus := range p.CPUs {
		for _, jvm := range p.JVMs {
			spec := p.spec(s, cpus, jvm, p.Search.gridHigh())
			if _, err := s.Check(spec); err != nil {
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
func (p MinMemPlan) Run(ctx context.Context, s *Session) ([]ModeResult, error) {
	if err := p.Check(s); err != nil {
		return nil, err
	}
	var out []ModeResult
	for _, cpus := range p.CPUs {
		for _, jvm := range p.JVMs {
			search := p.Search
			search.Parallel = max(search.Parallel, s.Parallel)
			search.OnRound = func(mems []int64) {
				whats := make([]string, len(mems))
				for i, m := range mems {
					whats[i] = "memory=" + size.Format(m)
				}
				s.Round(whats)
			}
			o, err := MinMem(ctx, search, p.trialAt(s, cpus, jvm))
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

// trialAt is the search's trial function for one pair. Repeats of one
// limit are distinct trials with distinct keys (Spec.Repeat), numbered in
// run order, so a rerun of the same search meets the same keys and takes
// every trial it already has from the store.
func (p MinMemPlan) trialAt(s *Session, cpus float64, jvm string) TrialFunc {
	runs := map[int64]int{}
	var mu sync.Mutex // a parallel round calls it side by side, each at its own limit
	return func(ctx context.Context, mem int64) (*trial.Result, error) {
		spec := p.spec(s, cpus, jvm, mem)
		mu.Lock()
		spec.Repeat, spec.Purpose = runs[mem], trial.PurposeSearch
		mu.Unlock()
		what := fmt.Sprintf("minmem cpus=%s jvm=%s memory=%s", fmtCPUs(cpus), jvm, size.Format(mem))
		if spec.Repeat > 0 {
			spec.Purpose = trial.PurposeRepeat
			what += fmt.Sprintf(" (repeat %d)", spec.Repeat)
		}
		r, _, err := s.Trial(ctx, spec, what)
		if err == nil {
			mu.Lock()
			runs[mem]++
			mu.Unlock()
		}
		return r, err
	}
}

// Candidates turns the searches into what Recommend chooses from. A
// minimum at the planner's floor is at an edge too: nothing below it is
// known to hold.
func Candidates(results []ModeResult) []Candidate {
	var cs []Candidate
	for _, m := range results {
		o := m.Outcome
		c := Candidate{JVM: m.JVM, CPUs: m.CPUs, MinOK: o.MinOK, Precision: o.Precision, NoiseBand: o.NoiseBand,
			Edge: o.MaxKO > 0 || (o.Floor > 0 && o.MinOK <= o.Floor)}
		if r := o.last(o.MinOK); r != nil {
			c.Java, c.Footprint = r.Spec.Java, r.MemoryPeakBytes
			if r.Load != nil {
				c.Throughput = r.Load.Throughput
			}
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
