package report

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// styleChart is issue 14's side-by-side answer: the minimum OK limit of
// each option mode (default, jvmfit, set:X, runjava, paketo, ubi, or any
// other name), read from the stored trials with minmem's rule, so a bar
// always says what the memory table's note and the search said. Each bar is
// labelled with the start time and p99 of its trial at that limit.
func styleChart(ts []*trial.Result) *chart {
	groups := configGroups(ts)
	if len(groups) < 2 {
		return nil
	}
	c := &chart{Kind: "bars", Horizontal: true, Title: "Minimum OK limit per mode", YName: "MiB",
		Note: "The lowest limit that passed with no failure above it (minmem's rule: each limit is the majority of its runs, a tie is KO), with the start time and p99 of the trial at that limit."}
	b := bars{Name: "minimum OK limit"}
	any := false
	for _, g := range groups {
		minOK, maxKO := boundary(g.Trials)
		c.XCats = append(c.XCats, g.Label)
		if minOK == 0 {
			b.Values = append(b.Values, 0)
			b.Text = append(b.Text, noOKText(maxKO))
			continue
		}
		any = true
		b.Values = append(b.Values, round1(mibf(minOK)))
		b.Text = append(b.Text, limitText(minOK, atLimit(g.Trials, minOK, trial.OK)))
	}
	if !any && !hasSearched(ts) {
		return nil
	}
	c.Bars = []bars{b}
	return c
}

// limitText is a bar's label: the limit, then the trial's start and p99.
func limitText(minOK int64, r *trial.Result) string {
	parts := []string{mem(minOK)}
	if r != nil {
		parts = append(parts, startCell(r)+" start")
		if r.Load != nil && r.Load.Latencies.P99 > 0 {
			parts = append(parts, "p99 "+ms(r.Load.Latencies.P99))
		}
	}
	return strings.Join(parts, " · ")
}

// noOKText says that no limit passed, and up to where it was tried.
func noOKText(maxKO int64) string {
	if maxKO == 0 {
		return "no limit tried"
	}
	return "none OK up to " + mem(maxKO)
}

func hasSearched(ts []*trial.Result) bool {
	for _, r := range ts {
		if searched(r) {
			return true
		}
	}
	return false
}
