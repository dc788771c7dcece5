package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// bookInputs are the fixture's three experiments, the minmem one with a
// stored recommendation whose text is hostile.
func bookInputs(t *testing.T, db string) []Input {
	var ins []Input
	for _, ref := range []string{"minmem-filecache", "sweep-filecache", "compare-seed001"} {
		ins = append(ins, loadInput(t, db, ref))
	}
	ins[0].Meta.Summary = &judge.Summary{Headline: "112Mi, 1 CPU, --jvm jvmfit",
		Text:    "- **Memory limit: 112Mi** <script>document.body.setAttribute('data-pwned','summary')</script>\n",
		Details: "| CPU | JVM | min OK |\n|---|---|---|\n| 1 | jvmfit | 104Mi |\n"}
	return ins
}

func TestMarkdownAllHasOverviewAndSections(t *testing.T) {
	ins := bookInputs(t, fixtureDB(t))
	var buf bytes.Buffer
	if err := MarkdownAll(&buf, ins); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"# jvmfit report: minmem-filecache, sweep-filecache, compare-seed001\n",
		"### Overview",
		"| 1 | minmem-filecache | minmem | 11 | 6 | 5 | 1h30m0s | 112Mi, 1 CPU, --jvm jvmfit |",
		"This machine has 2 cores; the load generator and the services share them",
		"## minmem-filecache (#1, minmem)",
		"### Memory limits: --jvm default",
		"### The search\n\n| CPU | JVM | min OK |",
		"### Recommendation\n\n- **Memory limit: 112Mi**",
		"## sweep-filecache (#2, sweep)",
		"### Where it breaks (knee)",
		"1 CPU: good up to 300 req/s, breaks at 400 req/s",
		"## compare-seed001 (#3, compare)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Sections come in the order given, each once.
	a, b, c := strings.Index(md, "## minmem-filecache"), strings.Index(md, "## sweep-filecache"), strings.Index(md, "## compare-seed001")
	if !(a < b && b < c) || strings.Count(md, "## sweep-filecache (") != 1 {
		t.Errorf("sections out of order: %d %d %d", a, b, c)
	}
	// One experiment reads exactly as the single-experiment report.
	var one, single bytes.Buffer
	MarkdownAll(&one, ins[1:2])
	Markdown(&single, ins[1])
	if one.String() != single.String() {
		t.Error("MarkdownAll of one experiment differs from Markdown")
	}
}

func TestHTMLAllChartIDsAreUnique(t *testing.T) {
	ins := bookInputs(t, fixtureDB(t))
	var buf bytes.Buffer
	if err := HTMLAll(&buf, ins, "test"); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	want := 0
	for _, in := range ins {
		want += len(buildCharts(in))
	}
	ids := regexp.MustCompile(`<div class="chart" id="(chart-\d+)"`).FindAllStringSubmatch(page, -1)
	seen := map[string]bool{}
	for _, m := range ids {
		if seen[m[1]] {
			t.Errorf("chart id %s used twice", m[1])
		}
		seen[m[1]] = true
	}
	if len(ids) != want || !strings.Contains(page, `data-charts-expected="`+itoa(want)+`"`) {
		t.Errorf("%d chart divs, want %d", len(ids), want)
	}
	if strings.Contains(page, "<script>document.body") {
		t.Error("raw HTML in the stored recommendation reached the page")
	}
	// The Markdown conclusion is rendered, not shown as source.
	for _, want := range []string{"<strong>Memory limit: 112Mi</strong>", "<td>104Mi</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "**Memory limit") {
		t.Error("the recommendation shows as Markdown source")
	}
	if n := strings.Count(page, `class="experiment-title"`); n != 3 {
		t.Errorf("%d experiment sections, want 3", n)
	}
}

// The report's "Lowest OK limit" is minmem's answer: majority of runs per
// limit, tie = KO, the lowest OK with no KO above it.
func TestMemoryNoteUsesTheSearchRule(t *testing.T) {
	mk := func(mem int64, v trial.Verdict) *trial.Result {
		r := &trial.Result{Spec: trial.Spec{AppName: "a", JVM: "default", CPUs: 1, MemoryBytes: mem * mb}, Verdict: v, StartedAt: time.Unix(mem, 0)}
		if v == trial.KO {
			r.Kind = trial.KindOOMKilled
		}
		return r
	}
	// 96Mi passes below a failing limit (luck), 128Mi ties (KO), 144Mi
	// passes by majority.
	ts := []*trial.Result{
		mk(96, trial.OK), mk(112, trial.KO),
		mk(128, trial.OK), mk(128, trial.KO),
		mk(144, trial.OK), mk(144, trial.OK), mk(144, trial.KO),
		mk(160, trial.OK),
	}
	for i, r := range ts {
		r.ID = int64(i + 1)
	}
	tables := MemoryTables(ts)
	if len(tables) != 1 || len(tables[0].Notes) != 1 {
		t.Fatalf("tables %+v", tables)
	}
	note := tables[0].Notes[0]
	if !strings.HasPrefix(note, "Lowest OK limit: 144Mi. Highest KO limit: 128Mi. Results are not monotone") {
		t.Errorf("note = %q", note)
	}
}

// A soak (minmem's proof at the recommended limit) is listed and marked,
// but is not one of the search's runs: a KO soak above the answer leaves
// "Lowest OK limit" and the OK/KO grid as the search found them.
func TestSoakIsNotPartOfTheSearch(t *testing.T) {
	mk := func(id, mem int64, v trial.Verdict, soak bool) *trial.Result {
		r := &trial.Result{ID: id, Spec: trial.Spec{AppName: "a", JVM: "jvmfit", CPUs: 1, MemoryBytes: mem * mb, Soak: soak},
			Verdict: v, StartedAt: time.Unix(id, 0)}
		if soak {
			r.Spec.Duration = time.Minute
		}
		if v == trial.KO {
			r.Kind = trial.KindOOMKilled
		}
		return r
	}
	ts := []*trial.Result{mk(1, 64, trial.KO, false), mk(2, 128, trial.OK, false), mk(3, 96, trial.OK, false),
		mk(4, 80, trial.KO, false), mk(5, 112, trial.KO, true), mk(6, 128, trial.OK, true)}
	tables := MemoryTables(ts)
	if len(tables) != 1 || len(tables[0].Notes) != 1 || tables[0].Notes[0] != "Lowest OK limit: 96Mi. Highest KO limit: 80Mi." {
		t.Fatalf("notes %q", tables[0].Notes)
	}
	soaks := 0
	for _, row := range tables[0].Rows {
		if strings.HasPrefix(row[2], "soak 1m0s: ") {
			soaks++
		}
	}
	if soaks != 2 || len(tables[0].Rows) != 6 {
		t.Errorf("%d of %d rows marked as soaks, want 2 of 6: %q", soaks, len(tables[0].Rows), tables[0].Rows)
	}
	g := okGrid(ts, varying(ts))
	for _, c := range g.Cells {
		if g.XCats[c.X] == "112Mi" {
			t.Errorf("the KO soak at 112Mi is in the grid: %+v", c)
		}
	}
}
