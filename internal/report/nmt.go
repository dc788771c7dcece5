package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// NMT over time: with --nmt the probe reads every category's committed
// bytes every 2 s. The page stacks them per trial, one chart per
// configuration opening on its minimum-OK trial, with the configuration's
// other trials a choice away; the per-category peaks go in a table.

// nmtChoice is one trial's stack.
type nmtChoice struct {
	Label  string     `json:"label"`
	Series []xySeries `json:"series"`
}

// smallCategory: categories whose peak stays below it are summed into one
// band, so the stack shows the dozen that matter rather than twenty-five.
const smallCategory = size.MiB

const smallName = "smaller categories"

func isTotal(cat string) bool { return strings.EqualFold(cat, "total") }

func hasNMTSeries(r *trial.Result) bool {
	for i := range r.Series {
		if len(r.Series[i].NMT) > 0 {
			return true
		}
	}
	return false
}

func nmtTimeCharts(ts []*trial.Result) []*chart {
	vary := varying(ts)
	groups := configGroups(ts)
	var out []*chart
	peaks := map[string]int64{} // over every chart, so a category keeps its colour across them
	for _, g := range groups {
		var with []*trial.Result
		for _, r := range g.Trials {
			if hasNMTSeries(r) {
				with = append(with, r)
			}
		}
		if len(with) == 0 {
			continue
		}
		shown, minOK := shownTrial(g.Trials, with, false), minOKTrial(g.Trials)
		c := &chart{Kind: "area", Title: "Native memory over time (NMT, committed)", XName: "time since start (s)", YName: "MiB",
			Note: fmt.Sprintf("Stacked by category, biggest at the bottom; categories that never reach %s are summed as %q. Opens on the minimum OK trial; choose another above the chart.", mem(smallCategory), smallName)}
		if len(groups) > 1 {
			c.Title += ": " + g.Label
		}
		// As in the time charts, the trials nearest to the shown one.
		kept := nearest(with, shown, maxPerGroup)
		if n := len(with) - len(kept); n > 0 {
			c.Note += fmt.Sprintf(" %d trials further from it are left out.", n)
		}
		for i, r := range kept {
			if r == shown {
				c.Default = i
			}
			label := legendName(r, vary, true)
			if r == minOK {
				label += " (minimum OK)"
			}
			c.Choices = append(c.Choices, nmtChoice{Label: label, Series: nmtSeries(r, peaks)})
		}
		out = append(out, c)
	}
	cats := byPeak(peaks)
	for _, c := range out {
		c.Cats = cats
	}
	return out
}

// nmtSeries is one trial's categories over time, biggest peak first, and
// adds each category's peak to peaks.
func nmtSeries(r *trial.Result, peaks map[string]int64) []xySeries {
	own := map[string]int64{}
	for _, s := range r.Series {
		for k, v := range s.NMT {
			if !isTotal(k) {
				own[k] = max(own[k], v)
			}
		}
	}
	band := func(k string) string {
		if own[k] < smallCategory {
			return smallName
		}
		return k
	}
	// Every band gets a point at every reading (0 when absent), so the
	// stack lines up reading by reading.
	idx, local := map[string]int{}, map[string]int64{}
	var out []xySeries
	for k := range own {
		if _, ok := idx[band(k)]; !ok {
			idx[band(k)] = len(out)
			out = append(out, xySeries{Name: band(k)})
		}
	}
	for _, s := range r.Series {
		if len(s.NMT) == 0 {
			continue
		}
		at := round1(s.At.Seconds())
		sums := map[string]int64{}
		for k, v := range s.NMT {
			if !isTotal(k) {
				sums[band(k)] += v
			}
		}
		for i := range out {
			v := sums[out[i].Name]
			out[i].Points = append(out[i].Points, [2]float64{at, round1(mibf(v))})
			peaks[out[i].Name] = max(peaks[out[i].Name], v)
			local[out[i].Name] = max(local[out[i].Name], v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return lessByPeak(out[i].Name, out[j].Name, local) })
	return out
}

// byPeak lists categories biggest first, the small band last.
func byPeak(peaks map[string]int64) []string {
	var names []string
	for k := range peaks {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return lessByPeak(names[i], names[j], peaks) })
	return names
}

func lessByPeak(a, b string, peaks map[string]int64) bool {
	if (a == smallName) != (b == smallName) {
		return b == smallName
	}
	if peaks[a] != peaks[b] {
		return peaks[a] > peaks[b]
	}
	return a < b
}
