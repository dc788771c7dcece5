// Package judge holds the rules that judge trial results: a limit's
// verdict from its runs and the search boundary (minmem), where a rate sweep
// breaks (the knee), and what an experiment concluded. They are pure
// functions over plain values, used by experiment (to decide) and report
// (to read tables the same way); judge imports neither, nor trial.
package judge

import "sort"

// Passes is a memory limit's verdict from all its runs: the majority, a tie
// counting as KO, because one failure in two runs is enough to distrust a
// limit. minmem searches with this rule and the report reads its tables
// with it, so the two can never disagree. Each run is true when it passed
// (verdict OK), which keeps this rule free of the trial's types.
func Passes(runs []bool) bool {
	ok := 0
	for _, passed := range runs {
		if passed {
			ok++
		}
	}
	return 2*ok > len(runs)
}

// Boundary is the lowest passing limit with no failing limit above it, and
// the highest failing limit (0 when there is none). Noise makes verdicts
// non-monotone; a lucky pass below a failure is never the answer.
func Boundary(runs map[int64][]bool) (minOK, maxKO int64) {
	mems := make([]int64, 0, len(runs))
	for m := range runs {
		mems = append(mems, m)
	}
	sort.Slice(mems, func(i, j int) bool { return mems[i] < mems[j] })
	for i := len(mems) - 1; i >= 0; i-- {
		if !Passes(runs[mems[i]]) {
			return minOK, mems[i]
		}
		minOK = mems[i]
	}
	return minOK, 0
}
