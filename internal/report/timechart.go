package report

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// A time chart draws a few figures per trial over time. Sixteen trials'
// lines at once are unreadable, so trials are grouped by configuration
// (one legend row each), and only each group's minimum-OK trial is drawn
// when the page opens; the others are a click on the legend away.

// timeLine is one figure of a trial over time; alt is drawn instead when
// the trial has none of it (a series stored before the figure existed).
type timeLine struct {
	name           string
	dashed, dotted bool
	get            func(sampleT) int64
	alt            *timeLine
}

// maxPerGroup bounds the trials a group carries on the page: the shown one
// and those nearest to it in limit. Points are thinned to maxPoints for the
// shown trials and half that for the others.
const maxPerGroup = 8

func memoryChart(ts []*trial.Result) *chart {
	rss := &timeLine{name: "RSS", dotted: true, get: func(s sampleT) int64 { return s.RSS }}
	return timeChart(ts, "Memory over time", "Per trial, one colour: cgroup usage solid, working set (usage minus inactive page cache, as the kubelet counts it) dashed, anonymous memory (RssAnon) dotted; a thin flat line marks the limit where it falls within the axis", []timeLine{
		{name: "cgroup usage", get: func(s sampleT) int64 { return s.CgroupUsage }},
		{name: "working set", dashed: true, get: func(s sampleT) int64 { return s.WorkingSet }},
		{name: "RSS anon", dotted: true, get: func(s sampleT) int64 { return s.RSSAnon }, alt: rss},
	}, true)
}

func heapChart(ts []*trial.Result) *chart {
	return timeChart(ts, "Heap over time", "Per trial, one colour: heap used solid, committed dashed", []timeLine{
		{name: "heap used", get: func(s sampleT) int64 { return s.HeapUsed }},
		{name: "heap committed", dashed: true, get: func(s sampleT) int64 { return s.HeapCommitted }},
	}, false)
}

func timeChart(ts []*trial.Result, title, note string, lines []timeLine, limits bool) *chart {
	c := &chart{Kind: "xy", Title: title, XName: "time since start (s)", YName: "MiB", Selected: map[string]bool{}, Wide: true}
	vary := varying(ts)
	omitted := 0
	for _, g := range configGroups(ts) {
		var with []*trial.Result
		for _, r := range g.Trials {
			if len(r.Series) > 0 {
				with = append(with, r)
			}
		}
		// A configuration with no OK trial opens with nothing drawn: its
		// failures (a limit far above the others) would flatten the rest.
		shown := shownTrial(g.Trials, with, true)
		kept := nearest(with, nearTo(shown, with), maxPerGroup)
		omitted += len(with) - len(kept)
		lg := legendGroup{Name: g.Label}
		for _, r := range kept {
			name := legendName(r, vary, false)
			n := len(c.Series)
			for i, l := range lines {
				s := trialLine(r, l, r == shown)
				if i == 0 && limits && r.Spec.MemoryBytes > 0 && !r.Spec.NoLimits {
					s.Limit = round1(mibf(r.Spec.MemoryBytes))
				}
				s.Name, s.Group = name, g.Label
				c.Series = appendDrawn(c.Series, s)
			}
			if len(c.Series) > n {
				lg.Items = append(lg.Items, name)
				c.Selected[name] = r == shown
			}
		}
		if len(lg.Items) > 0 {
			c.Groups = append(c.Groups, lg)
		}
	}
	if len(c.Series) == 0 {
		return nil
	}
	c.Note = note + ". Each row of the legend is one configuration; it opens on its minimum OK trial (in a sweep, its OK trial at the highest rate; none where nothing passed): click a trial to add or remove it."
	if omitted > 0 {
		c.Note += fmt.Sprintf(" %d trials further from the minimum OK limit are left out (at most %d per configuration).", omitted, maxPerGroup)
	}
	return c
}

// trialLine is one figure's points, thinned to a bounded count.
func trialLine(r *trial.Result, l timeLine, shown bool) xySeries {
	limit := maxPoints
	if !shown {
		limit = maxPoints / 2
	}
	step := (len(r.Series) + limit - 1) / limit
	s := xySeries{Line: l.name, Dashed: l.dashed, Dotted: l.dotted}
	for i := 0; i < len(r.Series); i += step {
		if v := l.get(r.Series[i]); v > 0 {
			s.Points = append(s.Points, [2]float64{round1(r.Series[i].At.Seconds()), round1(mibf(v))})
		}
	}
	if len(s.Points) == 0 && l.alt != nil {
		return trialLine(r, *l.alt, shown)
	}
	return s
}

// legendName names a trial within its group: its id, what varies besides
// the configuration, and how it went (with the KO kind when long).
func legendName(r *trial.Result, vary map[dimension]bool, long bool) string {
	n := "#" + strconv.FormatInt(r.ID, 10)
	if l := label(r, vary, dimMemory, dimRate); l != "" {
		n += " " + l
	}
	if r.Spec.Soak {
		n += " soak"
	}
	if !long {
		return n + " " + string(r.Verdict)
	}
	return n + " " + shortResult(r)
}

// nearest keeps the shown trial and the n-1 others nearest to it in limit
// (then rate), in their original order.
func nearest(ts []*trial.Result, shown *trial.Result, n int) []*trial.Result {
	if len(ts) <= n || shown == nil {
		return ts
	}
	dist := func(r *trial.Result) [2]float64 {
		if r == shown {
			return [2]float64{-1, -1}
		}
		return [2]float64{abs(float64(r.Spec.MemoryBytes - shown.Spec.MemoryBytes)), abs(rate(r) - rate(shown))}
	}
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		da, db := dist(ts[idx[a]]), dist(ts[idx[b]])
		if da[0] != db[0] {
			return da[0] < db[0]
		}
		return da[1] < db[1]
	})
	keep := idx[:n]
	sort.Ints(keep)
	out := make([]*trial.Result, 0, n)
	for _, i := range keep {
		out = append(out, ts[i])
	}
	return out
}

// nearTo is the trial the kept ones gather around: the shown one, else
// the highest limit tried.
func nearTo(shown *trial.Result, ts []*trial.Result) *trial.Result {
	if shown != nil {
		return shown
	}
	var top *trial.Result
	for _, r := range ts {
		if top == nil || r.Spec.MemoryBytes >= top.Spec.MemoryBytes {
			top = r
		}
	}
	return top
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
