package report

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Seed 004's chart and table: the memory an option set needs against the
// request rate, one line per option set, from minmem searches run at
// several rates (one experiment per rate, shown together). Each point is
// the lowest OK limit read with minmem's own rule (judge.Boundary) from
// the search's trials (soaks left out); beside it, the trial that passed
// there: its cgroup peak, working set, RSS (the seed's measure) and the
// CPU it used (the seed's "not excessive CPU").

// ratePoint is one option set's search at one rate.
type ratePoint struct {
	Label string
	Rate  float64
	MinOK int64
	MaxKO int64
	// At is the OK trial at MinOK (the latest, with repeats): the figures
	// of the cell.
	At *trial.Result
}

// rateCurve gathers the searches by option set (and app, CPUs and JDK
// when they vary) and rate; nil unless the trials span two rates or more.
func rateCurve(trials []*trial.Result) []ratePoint {
	var ts []*trial.Result
	rates := map[float64]bool{}
	for _, r := range sortedBySpec(sorted(trials)) {
		if !r.OnApp() || r.Spec.NoLimits || r.Spec.MemoryBytes == 0 || r.Spec.Soak || rate(r) <= 0 {
			continue
		}
		ts = append(ts, r)
		rates[rate(r)] = true
	}
	if len(rates) < 2 {
		return nil
	}
	vary := varying(ts)
	type cell struct {
		label string
		rate  float64
	}
	runs := map[cell]map[int64][]bool{}
	byCell := map[cell][]*trial.Result{}
	var order []cell
	for _, r := range ts {
		l := label(r, vary, dimApp, dimCPUs, dimJDK)
		if l != "" {
			l += " · "
		}
		c := cell{l + jvmLabel(r.Spec.JVM), rate(r)}
		if runs[c] == nil {
			runs[c] = map[int64][]bool{}
			order = append(order, c)
		}
		runs[c][r.Spec.MemoryBytes] = append(runs[c][r.Spec.MemoryBytes], r.Verdict == trial.OK)
		byCell[c] = append(byCell[c], r)
	}
	var out []ratePoint
	for _, c := range order {
		p := ratePoint{Label: c.label, Rate: c.rate}
		p.MinOK, p.MaxKO = judge.Boundary(runs[c])
		for _, r := range byCell[c] {
			if p.MinOK > 0 && r.Spec.MemoryBytes == p.MinOK && r.Verdict == trial.OK && (p.At == nil || r.ID > p.At.ID) {
				p.At = r
			}
		}
		out = append(out, p)
	}
	// Lines in the order the option sets first ran, points by rate.
	first := map[string]int{}
	for i, p := range out {
		if _, ok := first[p.Label]; !ok {
			first[p.Label] = i
		}
	}
	slices.SortStableFunc(out, func(a, b ratePoint) int {
		if a.Label != b.Label {
			return first[a.Label] - first[b.Label]
		}
		switch {
		case a.Rate < b.Rate:
			return -1
		case a.Rate > b.Rate:
			return 1
		}
		return 0
	})
	return out
}

// RateCurveTable is seed 004's figures: per option set and rate, the
// memory needed and what the passing trial there measured. nil when the
// trials span fewer than two rates.
func RateCurveTable(trials []*trial.Result) *Table {
	ps := rateCurve(trials)
	if ps == nil {
		return nil
	}
	t := &Table{Title: "Memory needed against the rate",
		Header: []string{"Option set", "Rate", "Memory needed", "Highest KO", "Cgroup peak (MiB)", "Working set peak (MiB)", "RSS peak (MiB)", "CPU (s)", "CPU (cores)", "Throughput", "p99", "p999", "Trial"}}
	for _, p := range ps {
		row := []string{p.Label, num(p.Rate), mem(p.MinOK), mem(p.MaxKO)}
		if r := p.At; r != nil {
			p99, p999 := dash, dash
			if r.Load != nil {
				p99, p999 = ms(r.Load.Latencies.P99), ms(r.Load.Latencies.P999)
			}
			row = append(row, mib(r.MemoryPeakBytes), mib(workingSetPeak(r)), mib(r.Summary.RSSPeak),
				seconds(r.Summary.CPUTime), coresCell(cpuCores(r)), oneDecimal(throughput(r)), p99, p999, "#"+strconv.FormatInt(r.ID, 10))
		} else {
			row = append(row, dash, dash, dash, dash, dash, dash, dash, dash, dash)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = []string{"Memory needed: the lowest OK limit with no KO above it, minmem's own rule, over each search's trials (soaks left out); " +
		"the figures beside it are the OK trial's at that limit. RSS is the process's resident set (the seed's measure); CPU is the trial's cgroup CPU time and its average over the trial's wall time."}
	if s := rateCurveWords(ps); s != "" {
		t.Notes = append(t.Notes, s)
	}
	return t
}

// rateCurveWords compares each option set with the first at every rate
// both passed: the ratio the seed reports (115 MB against 500).
func rateCurveWords(ps []ratePoint) string {
	if len(ps) == 0 {
		return ""
	}
	ref := ps[0].Label
	need := map[float64]int64{}
	for _, p := range ps {
		if p.Label == ref && p.MinOK > 0 {
			need[p.Rate] = p.MinOK
		}
	}
	var words []string
	for _, p := range ps {
		if p.Label == ref || p.MinOK == 0 || need[p.Rate] == 0 {
			continue
		}
		words = append(words, fmt.Sprintf("%s at %s req/s: %s, %.2f× %s's %s", p.Label, num(p.Rate), size.Format(p.MinOK),
			float64(p.MinOK)/float64(need[p.Rate]), ref, size.Format(need[p.Rate])))
	}
	if len(words) == 0 {
		return ""
	}
	s := "Against " + ref + ": "
	for i, w := range words {
		if i > 0 {
			s += "; "
		}
		s += w
	}
	return s + "."
}

// rateCurveChart is the seed's chart: memory needed (MiB) against the rate,
// one line per option set.
func rateCurveChart(trials []*trial.Result) *chart {
	ps := rateCurve(trials)
	if ps == nil {
		return nil
	}
	c := &chart{Kind: "xy", Title: "Memory needed against the rate", XName: "rate (req/s)", YName: "memory needed (MiB)",
		Note: "One line per option set: the lowest OK limit of its minmem search at each rate."}
	idx := map[string]int{}
	for _, p := range ps {
		if p.MinOK == 0 {
			continue // nothing passed in the range: no point
		}
		i, ok := idx[p.Label]
		if !ok {
			i = len(c.Series)
			idx[p.Label] = i
			c.Series = append(c.Series, xySeries{Name: p.Label})
		}
		c.Series[i].Points = append(c.Series[i].Points, [2]float64{p.Rate, float64(p.MinOK) / float64(size.MiB)})
	}
	if len(c.Series) == 0 {
		return nil
	}
	return c
}

// cpuCores is the trial's CPU time over its wall time: the CPUs it kept
// busy on average, start-up included.
func cpuCores(r *trial.Result) float64 {
	wall := r.EndedAt.Sub(r.StartedAt)
	if wall <= 0 || r.Summary.CPUTime <= 0 {
		return 0
	}
	return float64(r.Summary.CPUTime) / float64(wall)
}

func coresCell(v float64) string {
	if v <= 0 {
		return dash
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
