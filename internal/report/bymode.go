package report

import (
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Charts with many trials group them by configuration (the option mode,
// and the app, CPU count or JDK where those vary too) and show one trial
// per group by default: the one at the group's minimum OK limit, read with
// minmem's own rule, so the chart opens on the search's answer.

// configGroups splits trials by configuration, in the tables' order. A
// group's label names what varies; with nothing varying it is the mode.
func configGroups(ts []*trial.Result) []group {
	vary := varying(ts)
	return groupBy(sortedBySpec(ts), func(r *trial.Result) string {
		if l := label(r, vary, dimApp, dimCPUs, dimJVM, dimJDK); l != "" {
			return l
		}
		return jvmLabel(r.Spec.JVM)
	}, specOrder(ts))
}

// searched says whether a trial counts in minmem's search: a verdict on
// the app at a memory limit, not a soak (which proves the answer).
func searched(r *trial.Result) bool {
	return r.OnApp() && !r.Spec.NoLimits && r.Spec.MemoryBytes > 0 && !r.Spec.Soak
}

// boundary is judge.Boundary over the group's searched trials.
func boundary(ts []*trial.Result) (minOK, maxKO int64) {
	runs := map[int64][]bool{}
	for _, r := range ts {
		if searched(r) {
			runs[r.Spec.MemoryBytes] = append(runs[r.Spec.MemoryBytes], r.Verdict == trial.OK)
		}
	}
	return judge.Boundary(runs)
}

// atLimit is the trial that stands for a limit: among the searched trials
// at mem with the wanted verdict, the one at the highest rate (the most
// load), then the latest.
func atLimit(ts []*trial.Result, mem int64, verdict trial.Verdict) *trial.Result {
	var best *trial.Result
	for _, r := range ts {
		if !searched(r) || r.Spec.MemoryBytes != mem || r.Verdict != verdict {
			continue
		}
		if best == nil || rate(r) > rate(best) || (rate(r) == rate(best) && r.ID > best.ID) {
			best = r
		}
	}
	return best
}

// minOKTrial is the trial at the group's minimum OK limit, nil when no
// limit passed.
func minOKTrial(ts []*trial.Result) *trial.Result {
	minOK, _ := boundary(ts)
	if minOK == 0 {
		return nil
	}
	return atLimit(ts, minOK, trial.OK)
}

// shownTrial picks, among the candidates (a group's trials that have what
// the chart draws), the one shown by default: the group's minimum-OK trial
// when it is a candidate; else the OK candidate at the highest rate (a
// sweep, whose limit is fixed), then, unless okOnly, the candidate at the
// highest limit (nearest to passing), the latest on ties.
func shownTrial(group, candidates []*trial.Result, okOnly bool) *trial.Result {
	if len(candidates) == 0 {
		return nil
	}
	if m := minOKTrial(group); m != nil {
		for _, c := range candidates {
			if c == m {
				return m
			}
		}
	}
	var best *trial.Result
	better := func(a, b *trial.Result) bool {
		if (a.Verdict == trial.OK) != (b.Verdict == trial.OK) {
			return a.Verdict == trial.OK
		}
		if a.Spec.MemoryBytes != b.Spec.MemoryBytes {
			return a.Spec.MemoryBytes > b.Spec.MemoryBytes
		}
		if rate(a) != rate(b) {
			return rate(a) > rate(b)
		}
		return a.ID > b.ID
	}
	for _, c := range candidates {
		if best == nil || better(c, best) {
			best = c
		}
	}
	if okOnly && best != nil && best.Verdict != trial.OK {
		return nil
	}
	return best
}
