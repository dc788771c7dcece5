package report

import (
	"fmt"

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
		lowestOK, highestKO := int64(0), int64(0)
		for _, r := range g.Trials {
			cell := dimValue(r, dimMemory)
			if r.HeapMaxBytes > 0 {
				cell += " (" + mem(r.HeapMaxBytes) + ")"
			}
			t.Rows = append(t.Rows, []string{cpus(r.Spec.CPUs), cell, ResultCell(r)})
			m := r.Spec.MemoryBytes
			if r.Verdict == trial.OK && (lowestOK == 0 || m < lowestOK) {
				lowestOK = m
			}
			if r.Verdict == trial.KO && r.Kind != trial.KindError && m > highestKO {
				highestKO = m
			}
		}
		if !vary[dimCPUs] && lowestOK > 0 {
			note := fmt.Sprintf("Lowest OK limit: %s.", mem(lowestOK))
			if highestKO > 0 {
				note += fmt.Sprintf(" Highest KO limit: %s.", mem(highestKO))
			}
			if highestKO > lowestOK {
				note += " Results are not monotone here: noise, or a limit where the app only sometimes fits."
			}
			t.Notes = append(t.Notes, note)
		}
		out = append(out, t)
	}
	return out
}
