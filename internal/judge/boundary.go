// Package judge holds the rules that judge trial results: a limit's
// verdict from its runs and the search boundary (minmem), where a rate sweep
// breaks (the knee), and what an experiment concluded. They are pure
// functions over values, used by experiment (to decide) and report (to
// read tables the same way); judge imports neither.
package judge

import (
	"sort"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// Passes is a memory limit's verdict from all its runs: the majority, a tie
// counting as KO, because one failure in two runs is enough to distrust a
// limit. minmem searches with this rule and the report reads its tables
// with it, so the two can never disagree.
func Passes(verdicts []string) bool {
	ok := 0
	for _, v := range verdicts {
		if v == trial.OK {
			ok++
		}
	}
	return 2*ok > len(verdicts)
}

// Boundary is the lowest passing limit with no failing limit above it, and
// the highest failing limit (0 when there is none). Noise makes verdicts
// non-monotone; a lucky pass below a failure is never the answer.
func Boundary(runs map[int64][]string) (minOK, maxKO int64) {
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
