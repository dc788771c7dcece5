package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// chartTitled finds a chart by title.
func chartTitled(cs []chart, title string) *chart {
	for i := range cs {
		if cs[i].Title == title {
			return &cs[i]
		}
	}
	return nil
}

// The minimum OK limit per mode is minmem's answer for each mode (the same
// as the memory tables' notes, ubi's lucky pass below a failure ignored),
// labelled with the start and p99 of the trial at that limit; a mode with
// no OK limit gets an empty bar that says so.
func TestStyleChart(t *testing.T) {
	in := loadInput(t, fixtureDB(t), "minmem-styles")
	c := chartTitled(buildCharts(in), "Minimum OK limit per mode")
	if c == nil {
		t.Fatal("no minimum-OK chart")
	}
	if got := strings.Join(c.XCats, ","); got != "default,jvmfit,runjava,paketo,ubi" {
		t.Errorf("modes %s", got)
	}
	want := []float64{184, 104, 144, 0, 224}
	texts := []string{"184Mi · 7.5s start · p99 52.0ms", "104Mi · 4.1s start · p99 38.0ms", "144Mi · 5.8s start · p99 70.0ms", "none OK up to 1Gi", "224Mi · 6.9s start · p99 48.0ms"}
	if len(c.Bars) != 1 || len(c.Bars[0].Values) != 5 {
		t.Fatalf("bars %+v", c.Bars)
	}
	for i := range want {
		if c.Bars[0].Values[i] != want[i] || c.Bars[0].Text[i] != texts[i] {
			t.Errorf("%s: %v %q, want %v %q", c.XCats[i], c.Bars[0].Values[i], c.Bars[0].Text[i], want[i], texts[i])
		}
	}
	// The same answer as each memory table's note.
	for i, tb := range MemoryTables(in.Trials) {
		if want[i] == 0 {
			continue
		}
		if !strings.HasPrefix(tb.Notes[0], "Lowest OK limit: "+strings.Split(texts[i], " ")[0]+".") {
			t.Errorf("%s: table says %q, chart %q", tb.Title, tb.Notes[0], texts[i])
		}
	}
	// Any mode name works, and one mode alone needs no chart.
	for _, r := range in.Trials {
		r.Spec.JVM = strings.Replace(r.Spec.JVM, "paketo", "set:odd name", 1)
	}
	if c := styleChart(sortedBySpec(in.Trials)); c == nil || c.XCats[3] != "set:odd name" {
		t.Errorf("renamed mode: %+v", c)
	}
	one := loadInput(t, fixtureDB(t), "minmem-filecache")
	var jvmfit []*trial.Result
	for _, r := range one.Trials {
		if r.Spec.JVM == "jvmfit" {
			jvmfit = append(jvmfit, r)
		}
	}
	if c := styleChart(jvmfit); c != nil {
		t.Errorf("one mode drew %+v", c)
	}
}

// The memory chart groups trials by mode, one legend row each, and opens
// on each mode's minimum-OK trial (paketo, with none, on nothing: its
// 1Gi trial would flatten the rest); every other trial is in the legend,
// unselected.
func TestMemoryChartGroupsByMode(t *testing.T) {
	in := loadInput(t, fixtureDB(t), "minmem-styles")
	c := chartTitled(buildCharts(in), "Memory over time")
	if c == nil {
		t.Fatal("no memory chart")
	}
	var groups []string
	items := 0
	for _, g := range c.Groups {
		groups = append(groups, g.Name)
		items += len(g.Items)
	}
	if strings.Join(groups, ",") != "default,jvmfit,runjava,paketo,ubi" || items != 17 {
		t.Errorf("legend rows %q with %d trials", groups, items)
	}
	var on []string
	for _, g := range c.Groups {
		for _, it := range g.Items {
			if c.Selected[it] {
				on = append(on, g.Name+" "+it)
			}
		}
	}
	want := "default #33 184Mi OK,jvmfit #36 104Mi OK,runjava #39 144Mi OK,ubi #46 224Mi OK"
	if strings.Join(on, ",") != want {
		t.Errorf("shown at first:\n %s\nwant\n %s", strings.Join(on, ","), want)
	}
	if len(c.Selected) != 17 {
		t.Errorf("%d legend states, want 17", len(c.Selected))
	}
	// Three lines per trial, sharing the trial's legend name; the first
	// carries the limit.
	lines := map[string][]string{}
	for _, s := range c.Series {
		lines[s.Name] = append(lines[s.Name], s.Line)
		if s.Name == "#33 184Mi OK" && s.Line == "cgroup usage" && s.Limit != 184 {
			t.Errorf("limit line %v", s.Limit)
		}
	}
	if got := strings.Join(lines["#33 184Mi OK"], ","); got != "cgroup usage,working set,RSS anon" {
		t.Errorf("lines of #33: %s", got)
	}
}

// A group keeps at most maxPerGroup trials: the shown one and those
// nearest to its limit.
func TestMemoryChartKeepsNearest(t *testing.T) {
	in := loadInput(t, fixtureDB(t), "minmem-styles")
	var ts []*trial.Result
	for i, r := range in.Trials {
		if r.Spec.JVM == "ubi" {
			for k := int64(0); k < 3; k++ {
				cp := *r
				cp.ID = int64(1000 + 10*i + int(k))
				cp.Spec.MemoryBytes += (k + 1) * 64 * mb
				cp.Verdict, cp.Kind = trial.OK, ""
				ts = append(ts, &cp)
			}
			ts = append(ts, r)
		}
	}
	c := memoryChart(ts)
	if len(c.Groups) != 1 || len(c.Groups[0].Items) != maxPerGroup {
		t.Fatalf("groups %+v", c.Groups)
	}
	if !c.Selected["#46 224Mi OK"] || strings.Contains(strings.Join(c.Groups[0].Items, ","), "448Mi") {
		t.Errorf("kept %q", c.Groups[0].Items)
	}
	if !strings.Contains(c.Note, "12 trials further from the minimum OK limit are left out") {
		t.Errorf("note %q", c.Note)
	}
}

// NMT over time: one stacked chart per mode, opening on its minimum-OK
// trial, every trial of the mode with NMT readings a choice; small
// categories share a band, the total is not stacked on itself.
func TestNMTOverTime(t *testing.T) {
	in := loadInput(t, fixtureDB(t), "minmem-styles")
	var nmt []chart
	for _, c := range buildCharts(in) {
		if c.Kind == "area" {
			nmt = append(nmt, c)
		}
	}
	if len(nmt) != 5 || nmt[0].Title != "Native memory over time (NMT, committed): default" {
		t.Fatalf("%d NMT charts, first %q", len(nmt), nmt[0].Title)
	}
	d := nmt[0]
	if len(d.Choices) != 4 || d.Choices[d.Default].Label != "#33 184Mi OK (minimum OK)" || nmt[3].Choices[nmt[3].Default].Label != "#41 1Gi KO slo" {
		t.Errorf("choices %d, default %q", len(d.Choices), d.Choices[d.Default].Label)
	}
	ch := d.Choices[d.Default]
	var names []string
	for _, s := range ch.Series {
		names = append(names, s.Name)
		if len(s.Points) != 15 {
			t.Errorf("%s: %d points, want 15 (a reading every 2 s for 30 s)", s.Name, len(s.Points))
		}
	}
	if got := strings.Join(names, ","); got != "Java Heap,Class,Compiler,Code,Arena Chunk,Symbol,Thread,GC,smaller categories" {
		t.Errorf("bands %s", got)
	}
	// The compiler burst (2-6 s) is in the stack: 13.5 MiB at 2 s.
	for _, s := range ch.Series {
		if s.Name == "Compiler" && (s.Points[1][0] != 2 || s.Points[1][1] != 13.5 || s.Points[4][1] != 0.5) {
			t.Errorf("compiler %v", s.Points[:5])
		}
	}
	if d.Cats[len(d.Cats)-1] != smallName || d.Cats[0] != "Java Heap" {
		t.Errorf("cats %q", d.Cats)
	}
	for _, c := range nmt[1:] {
		if strings.Join(c.Cats, ",") != strings.Join(d.Cats, ",") {
			t.Errorf("%s: categories %q, the first chart's %q (colours would differ)", c.Title, c.Cats, d.Cats)
		}
	}
	// A configuration keeps at most maxPerGroup choices, around the shown one.
	var many []*trial.Result
	for _, r := range in.Trials {
		if r.Spec.JVM == "ubi" {
			for k := int64(0); k < 3; k++ {
				cp := *r
				cp.ID = 1000 + r.ID*10 + k
				cp.Spec.MemoryBytes += (k + 1) * 64 * mb
				cp.Verdict, cp.Kind = trial.OK, ""
				many = append(many, &cp)
			}
			many = append(many, r)
		}
	}
	if c := nmtTimeCharts(many); len(c) != 1 || len(c[0].Choices) != maxPerGroup || c[0].Choices[c[0].Default].Label != "#46 224Mi OK (minimum OK)" ||
		!strings.Contains(c[0].Note, "12 trials further from it are left out") {
		t.Errorf("20 trials: %d choices, default %q, note %q", len(c[0].Choices), c[0].Choices[c[0].Default].Label, c[0].Note)
	}
	// No trial with NMT readings, no chart.
	if c := nmtTimeCharts(loadInput(t, fixtureDB(t), "sweep-filecache").Trials); len(c) != 0 {
		t.Errorf("sweep drew %d NMT charts", len(c))
	}
}

// The peaks table has each mode's minimum-OK trial and its highest-KO
// trial, Total last.
func TestNMTPeakTable(t *testing.T) {
	tb := NMTPeakTable(loadInput(t, fixtureDB(t), "minmem-styles").Trials)
	if tb == nil {
		t.Fatal("no table")
	}
	if got := strings.Join(tb.Header[1:3], ","); got != "default #33 184Mi OK,default #32 176Mi KO oom-killed" {
		t.Errorf("header %q", tb.Header)
	}
	last := tb.Rows[len(tb.Rows)-1]
	// 184Mi: heap 69 + 8+6 class + 13.5 compiler (burst) + ... at 2 s.
	if last[0] != "Total" || last[1] != "116.0" {
		t.Errorf("total row %q", last)
	}
	if tb.Rows[0][0] != "Java Heap" || tb.Rows[0][1] != "69.0" {
		t.Errorf("first row %q", tb.Rows[0])
	}
	if NMTPeakTable(loadInput(t, fixtureDB(t), "sweep-filecache").Trials) != nil {
		t.Error("a table without NMT")
	}
}

// CSV and JSON carry the working set next to the cgroup peak, and JSON the
// series with ws and nmt.
func TestWorkingSetInCSVAndJSON(t *testing.T) {
	in := loadInput(t, fixtureDB(t), "minmem-styles")
	var buf bytes.Buffer
	if err := CSV(&buf, in.Trials); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&buf).ReadAll()
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if col["working_set_peak_bytes"] != col["memory_peak_bytes"]+1 {
		t.Errorf("working_set_peak_bytes at %d, memory_peak_bytes at %d", col["working_set_peak_bytes"], col["memory_peak_bytes"])
	}
	var r33 *trial.Result
	for _, r := range in.Trials {
		if r.ID == 33 {
			r33 = r
		}
	}
	var anon int64
	for _, smp := range r33.Series {
		anon = max(anon, smp.RSSAnon)
	}
	r := rows[4] // #33, 184Mi OK
	if r[col["id"]] != "33" || r[col["memory_peak_bytes"]] != i64(r33.MemoryPeakBytes) || r[col["working_set_peak_bytes"]] != i64(r33.WorkingSetPeakBytes) ||
		r[col["rss_anon_peak_bytes"]] != i64(anon) || r33.WorkingSetPeakBytes <= 0 || r33.WorkingSetPeakBytes >= r33.MemoryPeakBytes {
		t.Errorf("row %s: peak %s, ws %s, anon %s; stored %d, %d, %d", r[col["id"]], r[col["memory_peak_bytes"]], r[col["working_set_peak_bytes"]],
			r[col["rss_anon_peak_bytes"]], r33.MemoryPeakBytes, r33.WorkingSetPeakBytes, anon)
	}
	buf.Reset()
	if err := JSON(&buf, in.Trials); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		WS      int64 `json:"working_set_peak_bytes"`
		Summary struct {
			NMTPeak map[string]int64 `json:"nmt_peak"`
		} `json:"summary"`
		Series []map[string]any `json:"series"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	g := got[3]
	if g.WS != r33.WorkingSetPeakBytes || g.Summary.NMTPeak["Compiler"] != 13<<20+1<<19 || g.Series[0]["ws"] == nil || g.Series[0]["nmt"] == nil {
		t.Errorf("json: ws %d, nmt peak %v, first sample %v", g.WS, g.Summary.NMTPeak, g.Series[0])
	}
}
