package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// chart is what the page script turns into an ECharts option. Kinds:
// "xy" (lines over a numeric x), "grid" (OK/KO cells), "bars" (stacked or
// grouped bars over categories).
type chart struct {
	ID     string     `json:"id"`
	Kind   string     `json:"kind"`
	Title  string     `json:"title"`
	Note   string     `json:"note,omitempty"`
	XName  string     `json:"x_name,omitempty"`
	YName  string     `json:"y_name,omitempty"`
	YLog   bool       `json:"y_log,omitempty"`
	YMax   float64    `json:"y_max,omitempty"`
	Series []xySeries `json:"series,omitempty"`
	// grid and bars
	XCats []string   `json:"x_cats,omitempty"`
	YCats []string   `json:"y_cats,omitempty"`
	Cells []gridCell `json:"cells,omitempty"`
	Bars  []bars     `json:"bars,omitempty"`
	Stack bool       `json:"stack,omitempty"`
	Wide  bool       `json:"-"` // the whole width of the page (a legend row per configuration)
	// Horizontal draws one labelled bar per category across (Bars[0]).
	Horizontal bool `json:"horizontal,omitempty"`
	// xy over time: legend rows, one per configuration, and which
	// trials (legend names) are drawn when the page opens.
	Groups   []legendGroup   `json:"groups,omitempty"`
	Selected map[string]bool `json:"selected,omitempty"`
	// area (NMT over time): one stack per trial to choose from, the one
	// drawn first, and every category of the experiment's NMT charts,
	// biggest first (a category keeps its colour across charts and
	// choices).
	Choices []nmtChoice `json:"choices,omitempty"`
	Default int         `json:"default,omitempty"`
	Cats    []string    `json:"cats,omitempty"`
	// pareto (tune): the search trials in layers, OK, KO, the front and
	// the chosen point.
	Pareto []paretoSeries `json:"pareto,omitempty"`
}

// legendGroup is one configuration's row of the legend.
type legendGroup struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

type xySeries struct {
	Name   string `json:"name"`
	Dashed bool   `json:"dashed,omitempty"`
	Dotted bool   `json:"dotted,omitempty"`
	// Over time, a trial's lines share its legend name; Line says which
	// figure each one is, Group its configuration, Limit its memory
	// limit (MiB, drawn as a thin line).
	Line   string       `json:"line,omitempty"`
	Group  string       `json:"group,omitempty"`
	Limit  float64      `json:"limit,omitempty"`
	Points [][2]float64 `json:"points"`
}

type gridCell struct {
	X, Y  int
	Value float64 // 1 OK, 0 KO, in between for mixed repeats
	Text  string  // e.g. "OK", "KO oom-killed", "1 OK / 1 KO"
}

// MarshalJSON keeps cells compact: [x, y, value, text].
func (c gridCell) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("[%d,%d,%s,%s]", c.X, c.Y, strconv.FormatFloat(c.Value, 'f', -1, 64), strconv.Quote(c.Text))), nil
}

type bars struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
	Text   []string  `json:"text,omitempty"` // a label per bar, drawn on it
}

// maxLines keeps time-series charts readable; maxPoints keeps the page
// small (a 5-minute trial has 1200 samples).
const (
	maxLines  = 16
	maxPoints = 400
)

func buildCharts(in Input) []chart {
	ts := sortedBySpec(sorted(in.Trials))
	vary := varying(ts)
	var out []chart
	add := func(c *chart) {
		if c != nil {
			c.ID = "chart-" + strconv.Itoa(len(out)+1)
			out = append(out, *c)
		}
	}
	if vary[dimRate] || in.Meta.Kind == "sweep" {
		for _, c := range rateCharts(ts, vary) {
			add(c)
		}
	}
	switch {
	case in.Meta.Kind == store.KindTune:
		// Tune's every trial has its own options (the launcher's plan
		// changes with the limit), so a grid or bars by configuration
		// would have a row per trial: the front chart shows them all.
		add(paretoChart(ts))
	case vary[dimMemory] || in.Meta.Kind == "minmem":
		add(okGrid(ts, vary))
		add(styleChart(ts))
	}
	if vary[dimRate] && vary[dimMemory] && in.Meta.Kind != store.KindTune {
		add(rateCurveChart(ts))
	}
	add(compareChart(ts, vary))
	add(memoryChart(ts))
	add(heapChart(ts))
	for _, c := range nmtTimeCharts(ts) {
		add(c)
	}
	add(nmtChart(ts))
	return out
}

func mibf(b int64) float64 { return float64(b) / float64(size.MiB) }

// trialLabel names a trial in legends: its id and what varies.
func trialLabel(r *trial.Result, vary map[dimension]bool) string {
	l := label(r, vary, dimApp, dimCPUs, dimMemory, dimJVM, dimJDK, dimRate)
	if l == "" {
		return "#" + strconv.FormatInt(r.ID, 10)
	}
	return "#" + strconv.FormatInt(r.ID, 10) + " " + l
}

func rateCharts(ts []*trial.Result, vary map[dimension]bool) []*chart {
	thr := &chart{Kind: "xy", Title: "Throughput against rate", XName: "rate (req/s)", YName: "throughput (req/s)",
		Note: "One line per configuration; the dotted line is the rate asked for."}
	latc := &chart{Kind: "xy", Title: "Latency against rate", XName: "rate (req/s)", YName: "latency (ms, log)", YLog: true,
		Note: "p99 solid, p50 dashed; measured from the intended send time."}
	suc := &chart{Kind: "xy", Title: "Success against rate", XName: "rate (req/s)", YName: "success (%)", YMax: 100}
	maxRate := 0.0
	for _, g := range sweepGroups(ts, vary) {
		var t, p50, p99, s xySeries
		t.Name, p50.Name, p99.Name, s.Name = g.Label, g.Label+" p50", g.Label+" p99", g.Label
		p50.Dashed = true
		for _, r := range g.Trials {
			x := rate(r)
			if x <= 0 || !r.OnApp() {
				continue
			}
			if x > maxRate {
				maxRate = x
			}
			t.Points = append(t.Points, [2]float64{x, throughput(r)})
			s.Points = append(s.Points, [2]float64{x, success(r) * 100})
			if r.Load != nil && r.Load.Latencies.P99 > 0 {
				p50.Points = append(p50.Points, [2]float64{x, float64(r.Load.Latencies.P50) / 1e6})
				p99.Points = append(p99.Points, [2]float64{x, float64(r.Load.Latencies.P99) / 1e6})
			}
		}
		thr.Series = appendDrawn(thr.Series, t)
		suc.Series = appendDrawn(suc.Series, s)
		latc.Series = appendDrawn(latc.Series, p99, p50)
	}
	if maxRate == 0 {
		return nil
	}
	thr.Series = append(thr.Series, xySeries{Name: "rate asked", Dashed: true, Points: [][2]float64{{0, 0}, {maxRate, maxRate}}})
	return []*chart{thr, latc, suc}
}

// appendDrawn leaves out series with nothing to draw (e.g. latency of a
// configuration whose every trial died before the load).
func appendDrawn(dst []xySeries, ss ...xySeries) []xySeries {
	for _, s := range ss {
		if len(s.Points) > 0 {
			dst = append(dst, s)
		}
	}
	return dst
}

// okGrid is seed 000's table as a picture: memory limits across,
// configurations down, each cell OK or KO. A soak is left out: it proves
// the recommendation, which says how it went.
func okGrid(ts []*trial.Result, vary map[dimension]bool) *chart {
	var limited []*trial.Result
	for _, r := range ts {
		if r.Spec.MemoryBytes > 0 && r.OnApp() && !r.Spec.Soak {
			limited = append(limited, r)
		}
	}
	if len(limited) == 0 {
		return nil
	}
	c := &chart{Kind: "grid", Title: "OK/KO by memory limit", XName: "memory limit", YName: "configuration",
		Note: "Green OK, red KO; a cell with repeats that disagree is amber (OK/KO). Point at a cell for why it failed."}
	xi := map[int64]int{}
	for i, m := range memoryLimits(limited) {
		xi[m] = i
		c.XCats = append(c.XCats, mem(m))
	}
	rows := groupBy(limited, func(r *trial.Result) string {
		l := label(r, vary, dimApp, dimCPUs, dimJVM, dimJDK, dimRate)
		if l == "" {
			l = dimValue(r, dimCPUs) + " · " + dimValue(r, dimJVM)
		}
		return l
	}, specOrder(limited))
	for y, g := range rows {
		c.YCats = append(c.YCats, g.Label)
		c.Cells = append(c.Cells, gridRow(y, g.Trials, xi)...)
	}
	return c
}

// memoryLimits lists the trials' limits, smallest first, once each.
func memoryLimits(ts []*trial.Result) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, r := range ts {
		if !seen[r.Spec.MemoryBytes] {
			seen[r.Spec.MemoryBytes] = true
			out = append(out, r.Spec.MemoryBytes)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// gridRow is one configuration's cells: per limit, the share of its runs
// that passed and what the failures were.
func gridRow(y int, ts []*trial.Result, xi map[int64]int) []gridCell {
	type tally struct {
		ok, ko int
		kinds  []string
	}
	cells := map[int]*tally{}
	for _, r := range ts {
		x := xi[r.Spec.MemoryBytes]
		if cells[x] == nil {
			cells[x] = &tally{}
		}
		if r.Verdict == trial.OK {
			cells[x].ok++
		} else {
			cells[x].ko++
			cells[x].kinds = append(cells[x].kinds, string(r.Kind))
		}
	}
	var xs []int
	for x := range cells {
		xs = append(xs, x)
	}
	sort.Ints(xs)
	var out []gridCell
	for _, x := range xs {
		t := cells[x]
		cell := gridCell{X: x, Y: y, Value: float64(t.ok) / float64(t.ok+t.ko)}
		switch {
		case t.ko == 0:
			cell.Text = "OK"
		case t.ok == 0:
			cell.Text = "KO " + strings.Join(unique(t.kinds), ",")
		default:
			cell.Text = fmt.Sprintf("%d OK / %d KO", t.ok, t.ko)
		}
		out = append(out, cell)
	}
	return out
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// compareChart draws seed 001's memory rows: live set and mapped heap per
// configuration.
func compareChart(ts []*trial.Result, vary map[dimension]bool) *chart {
	if !vary[dimJVM] {
		return nil
	}
	c := &chart{Kind: "bars", Title: "Live set and mapped heap by configuration", YName: "MiB",
		Note: "Seed 001's figures: GC live set and committed (mapped) heap, average and peak, last trial of each configuration."}
	latest := map[string]*trial.Result{}
	var order []string
	for _, r := range ts {
		if r.Summary.LiveAvg == 0 && r.Summary.MappedAvg == 0 {
			continue
		}
		l := label(r, vary, dimApp, dimCPUs, dimMemory, dimJVM, dimJDK, dimRate)
		if _, ok := latest[l]; !ok {
			order = append(order, l)
		}
		if p := latest[l]; p == nil || r.ID > p.ID {
			latest[l] = r
		}
	}
	if len(order) < 2 {
		return nil
	}
	rows := []struct {
		name string
		get  func(trial.Summary) int64
	}{
		{"live avg", func(s trial.Summary) int64 { return s.LiveAvg }},
		{"live peak", func(s trial.Summary) int64 { return s.LivePeak }},
		{"phys avg", func(s trial.Summary) int64 { return s.MappedAvg }},
		{"phys peak", func(s trial.Summary) int64 { return s.MappedPeak }},
	}
	c.XCats = order
	for _, row := range rows {
		b := bars{Name: row.name}
		for _, l := range order {
			b.Values = append(b.Values, round1(mibf(row.get(latest[l].Summary))))
		}
		c.Bars = append(c.Bars, b)
	}
	return c
}

func round1(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 1, 64), 64)
	return f
}

// nmtChart stacks each trial's committed native memory by NMT category.
func nmtChart(ts []*trial.Result) *chart {
	vary := varying(ts)
	var with []*trial.Result
	cats := map[string]int64{}
	for _, r := range sorted(ts) {
		if len(r.NMT) == 0 {
			continue
		}
		with = append(with, r)
		for k, v := range r.NMT {
			if !strings.EqualFold(k, "total") {
				cats[k] += v.Committed
			}
		}
	}
	if len(with) == 0 {
		return nil
	}
	// Biggest regions at the bottom of the stack, where they read best.
	var names []string
	for k := range cats {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if cats[names[i]] != cats[names[j]] {
			return cats[names[i]] > cats[names[j]]
		}
		return names[i] < names[j]
	})
	c := &chart{Kind: "bars", Stack: true, Title: "Native memory at the end of each trial (NMT, committed)", YName: "MiB",
		Note: "From jcmd VM.native_memory summary at the end of each trial run with --nmt."}
	for _, r := range with {
		c.XCats = append(c.XCats, trialLabel(r, vary))
	}
	for _, k := range names {
		b := bars{Name: k}
		for _, r := range with {
			b.Values = append(b.Values, round1(mibf(r.NMT[k].Committed)))
		}
		c.Bars = append(c.Bars, b)
	}
	return c
}
