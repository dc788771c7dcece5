package experiment

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// PrepareError is a cell that could not be prepared (bad mode, JDK or
// option set): the user's to fix, found before any trial ran.
type PrepareError struct {
	Cell Cell
	Err  error
}

func (e *PrepareError) Error() string { return fmt.Sprintf("%s: %v", e.Cell, e.Err) }
func (e *PrepareError) Unwrap() error { return e.Err }

// SweepCandidates reads a sweep for a recommendation. The target is the
// highest rate at which any cell passed; for each (JVM, JDK, CPUs) the
// candidate is the smallest memory that passed at that rate, at the edge
// (needing a margin) when a smaller memory failed at the same rate.
func SweepCandidates(cells []CellResult) []Candidate {
	var target float64
	for _, c := range cells {
		if c.Result.Verdict == trial.OK && c.Cell.Rate > target {
			target = c.Cell.Rate
		}
	}
	type group struct {
		jvm, java string
		cpus      float64
	}
	best := map[group]*Candidate{}
	var order []group
	for _, c := range cells {
		if c.Cell.Rate != target {
			continue
		}
		g := group{c.Cell.JVM, c.Cell.Java, c.Cell.CPUs}
		cand, seen := best[g]
		if !seen {
			cand = &Candidate{JVM: g.jvm, Java: g.java, CPUs: g.cpus, Rate: target}
			if target > 0 {
				cand.Where = fmt.Sprintf("at %g req/s, the highest rate any cell passed", target)
			}
			best[g] = cand
			order = append(order, g)
		}
		if c.Result.Verdict != trial.OK || (cand.MinOK != 0 && c.Cell.MemoryBytes >= cand.MinOK) {
			continue
		}
		cand.MinOK = c.Cell.MemoryBytes
		cand.Footprint = c.Result.MemoryPeakBytes
		if c.Result.Load != nil {
			cand.Throughput = c.Result.Load.Throughput
		}
		if c.Result.Spec.Java != "" {
			cand.Java = c.Result.Spec.Java
		}
	}
	var out []Candidate
	for _, g := range order {
		cand := best[g]
		for _, c := range cells {
			if c.Cell.Rate == target && c.Cell.JVM == g.jvm && c.Cell.Java == g.java && c.Cell.CPUs == g.cpus &&
				c.Result.Verdict == trial.KO && c.Cell.MemoryBytes < cand.MinOK {
				cand.Edge = true
			}
		}
		out = append(out, *cand)
	}
	return out
}
