package report

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// MemoryTables lays trials out like seed 000: one table per option mode
// (and app, JDK when they vary), rows by CPUs then memory limit, the heap
// the JVM chose in brackets, and the verdict with start time and req/s.
func MemoryTables(trials []*trial.Result) []Table {
	ts := sortedBySpec(sorted(trials))
	vary := varying(ts)
	groups := groupBy(ts, func(r *trial.Result) string {
		l := label(r, vary, dimApp, dimJDK)
		j := "--jvm " + jvmLabel(r.Spec.JVM)
		if l != "" {
			return l + " · " + j
		}
		return j
	}, specOrder(ts))
	var out []Table
	for _, g := range groups {
		t := Table{Title: "Memory limits: " + g.Label, Header: []string{"CPU", "Memory (heap)", "Result"}}
		byCPU := map[float64]map[int64][]bool{}
		var cpuOrder []float64
		for _, r := range g.Trials {
			cell := dimValue(r, dimMemory)
			if r.HeapMaxBytes > 0 {
				cell += " (" + mem(r.HeapMaxBytes) + ")"
			}
			res := r.Cell()
			if r.Spec.Soak {
				res = "soak " + r.Spec.Duration.String() + ": " + res
			}
			t.Rows = append(t.Rows, []string{cpus(r.Spec.CPUs), cell, res})
			if !r.OnApp() || r.Spec.NoLimits || r.Spec.MemoryBytes == 0 || r.Spec.Soak {
				continue // no verdict on the app at this limit, or not the search's
			}
			c := r.Spec.CPUs
			if byCPU[c] == nil {
				byCPU[c] = map[int64][]bool{}
				cpuOrder = append(cpuOrder, c)
			}
			byCPU[c][r.Spec.MemoryBytes] = append(byCPU[c][r.Spec.MemoryBytes], r.Verdict == trial.OK)
		}
		for _, c := range cpuOrder {
			if note := boundaryNote(byCPU[c]); note != "" {
				if len(cpuOrder) > 1 {
					note = dimValue(&trial.Result{Spec: trial.Spec{CPUs: c}}, dimCPUs) + ": " + note
				}
				t.Notes = append(t.Notes, note)
			}
		}
		out = append(out, t)
	}
	return out
}

// boundaryNote reads one CPU count's limits with minmem's rule (Boundary),
// so the table's answer is the search's answer.
func boundaryNote(runs map[int64][]bool) string {
	minOK, maxKO := judge.Boundary(runs)
	if minOK == 0 {
		return ""
	}
	note := fmt.Sprintf("Lowest OK limit: %s.", mem(minOK))
	if maxKO > 0 {
		note += fmt.Sprintf(" Highest KO limit: %s.", mem(maxKO))
	}
	mixed := false
	for m, vs := range runs {
		for _, v := range vs {
			// A pass below the answer, or a limit that both passed and failed.
			if (v && m < minOK) || v != vs[0] {
				mixed = true
			}
		}
	}
	if mixed {
		note += " Results are not monotone here (noise, or a limit where the app only sometimes fits); each limit counts as the majority of its runs, a tie as KO."
	}
	return note
}
