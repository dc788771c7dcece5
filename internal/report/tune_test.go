package report

import (
	"bytes"
	"encoding/json"
	"html"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// tuneFixture is a tune on filecache as tune stores it (experiment/
// tune_trials.go): the profile trial (the JDK's defaults with NMT), a
// training run writing an app CDS archive, search trials with the
// launcher's options then the candidate's, and a soak through jvmfit exec
// with the chosen candidate's options. The search trials are laid out so
// that the front needs all four axes: one point is on it only for its
// start time, one only for its throttling.
type tuneTrial struct {
	memMiB    int64
	plan      []string // the launcher's options at that limit
	cand      []string // the candidate's
	kind      trial.Kind
	p99       time.Duration
	start     float64
	throttled time.Duration // over the trial's 50 s
	search    bool
}

var (
	tuneSerialC1  = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xmx22m"}
	tuneParallel  = []string{"-XX:+UseParallelGC", "-XX:ParallelGCThreads=1", "-XX:TieredStopAtLevel=1", "-Xmx24m"}
	tuneAppCDS    = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx22m", "-XX:SharedArchiveFile=/db.tune/filecache-1cpu-footprint/app.jsa"}
	tuneTrainOpts = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx22m", "-XX:ArchiveClassesAtExit=/db.tune/filecache-1cpu-footprint/app.jsa"}
	tunePlanAt    = func(mib int64) []string {
		return []string{"-XX:MaxMetaspaceSize=48m", "-Xss256k", "-XX:MaxRAM=" + itoa(int(mib)) + "m"}
	}
	ms1           = time.Millisecond
	tuneFixtureTs = []tuneTrial{
		{memMiB: 512, kind: "", p99: 20 * ms1, start: 8.2, throttled: 2 * time.Second},                                                   // profile
		{memMiB: 512, cand: tuneTrainOpts, p99: 25 * ms1, start: 8.0, throttled: time.Second},                                            // training
		{memMiB: 120, plan: tunePlanAt(120), cand: tuneSerialC1, kind: trial.KindOOMKilled, search: true},                                // KO, no p99
		{memMiB: 128, plan: tunePlanAt(128), cand: tuneSerialC1, p99: 40 * ms1, start: 5, throttled: 500 * ms1, search: true},            // front, chosen
		{memMiB: 124, plan: tunePlanAt(124), cand: tuneSerialC1, kind: trial.KindSLO, p99: 300 * ms1, start: 5, search: true},            // KO with p99
		{memMiB: 136, plan: tunePlanAt(136), cand: tuneParallel, p99: 30 * ms1, start: 5, throttled: 500 * ms1, search: true},            // front: p99
		{memMiB: 144, plan: tunePlanAt(144), cand: tuneParallel, p99: 50 * ms1, start: 6, throttled: time.Second, search: true},          // dominated by #128
		{memMiB: 144, plan: tunePlanAt(144), cand: tuneAppCDS, p99: 45 * ms1, start: 3.5, throttled: 500 * ms1, search: true},            // front: start
		{memMiB: 160, plan: tunePlanAt(160), cand: tuneParallel, p99: 60 * ms1, start: 7, throttled: 0, search: true},                    // front: throttling
		{memMiB: 160, plan: tunePlanAt(160), cand: tuneAppCDS, p99: 45 * ms1, start: 3.5, throttled: 500 * ms1, search: true},            // dominated by #144 appcds
		{memMiB: 152, plan: tunePlanAt(152), cand: tuneAppCDS, kind: trial.KindSLO, p99: 20 * ms1, start: 3, throttled: 0, search: true}, // KO dominates nothing
	}
)

// tuneFixtureDB stores the tune and returns the database and the search
// trials' results as stored, in order.
func tuneFixtureDB(t *testing.T) (string, []*trial.Result) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tune.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	exp, err := s.NewExperiment("tune-filecache", "tune", map[string]any{"cpus": 1, "goal": "footprint"})
	if err != nil {
		t.Fatal(err)
	}
	save := func(r *trial.Result) {
		r.Key = r.Spec.Key()
		id, err := s.SaveTrial(exp, r)
		if err != nil {
			t.Fatal(err)
		}
		r.ID = id
	}
	var search []*trial.Result
	for i, tt := range tuneFixtureTs {
		sy := synth{app: "filecache", cpus: 1, memMiB: tt.memMiB, jvm: "x", jdk: 17, rate: 100, thr: 99.9, success: 1,
			p50: 2 * ms1, p99: tt.p99, start: tt.start, heapMiB: 22, samples: 40}
		if tt.kind == trial.KindOOMKilled {
			sy.kind = tt.kind
		}
		r := sy.result(300 + i)
		opts := append(append([]string(nil), tt.plan...), tt.cand...)
		r.Spec.JVM, r.Spec.JVMOptions = strings.Join(opts, " "), opts
		if len(opts) == 0 {
			r.Spec.JVM, r.Spec.JVMOptions, r.Spec.NMT = "default", nil, true
		}
		if tt.kind == trial.KindSLO {
			r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindSLO, []string{"p99 or success"}
		}
		r.Summary.Throttled = tt.throttled
		save(r)
		if tt.search {
			search = append(search, r)
		}
	}
	// The soak: jvmfit exec with the chosen candidate's options at its limit.
	soak := synth{app: "filecache", cpus: 1, memMiB: 128, jvm: "default", jdk: 17, rate: 100, thr: 99.9, success: 1,
		p50: 2 * ms1, p99: 35 * ms1, start: 5, heapMiB: 22, samples: 40}.result(400)
	soak.Spec.Soak, soak.Spec.Launcher, soak.Spec.UserOptions, soak.Spec.JVMOptions = true, trial.LauncherExec, tuneSerialC1, tuneSerialC1
	soak.Spec.Duration = time.Minute
	save(soak)
	s.SetSummary(exp, judge.Summary{Headline: "128Mi, 1 CPU, serial-c1 (proven)", Text: "The answer."})
	s.EndExperiment(exp)
	return path, search
}

// wantFront is the front computed here, apart from the report: the judge
// over the search trials as tune builds its points.
func wantFront(t *testing.T, search []*trial.Result) []int64 {
	var pts []judge.ParetoPoint
	for i, r := range search {
		tt := tuneFixtureTs[2+i]
		pts = append(pts, judge.ParetoPoint{MemoryBytes: tt.memMiB * mb, P99: tt.p99, StartSeconds: tt.start,
			Throttling: tt.throttled.Seconds() / 50, OK: r.Verdict == trial.OK})
	}
	var ids []int64
	for _, k := range judge.Front(pts) {
		ids = append(ids, search[k].ID)
	}
	// The fixture is laid out for a front of four, one per axis.
	if len(ids) != 4 {
		t.Fatalf("the fixture's front has %d points, want 4: %v", len(ids), ids)
	}
	return ids
}

// pageCharts reads the charts back from the page's JSON block, as the
// page script does.
func pageCharts(t *testing.T, page string) []pageChart {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="jvmfit-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block in the page")
	}
	var data struct {
		Charts []pageChart `json:"charts"`
	}
	// html/template writes the JSON with <, > and & as \u escapes, which
	// JSON reads back; nothing else is entity-escaped in a script.
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("data block: %v\n%.500s", err, html.UnescapeString(m[1]))
	}
	return data.Charts
}

// pageChart is what the tests read of a chart in the page's data.
type pageChart struct {
	Kind   string         `json:"kind"`
	Pareto []paretoSeries `json:"pareto"`
}

func paretoIDs(s paretoSeries) []int64 {
	var ids []int64
	for _, p := range s.Points {
		ids = append(ids, p.ID)
	}
	return ids
}

func TestTuneParetoChartInHTML(t *testing.T) {
	db, search := tuneFixtureDB(t)
	front := wantFront(t, search)
	in := loadInput(t, db, "tune-filecache")
	var page bytes.Buffer
	if err := HTML(&page, in, "test"); err != nil {
		t.Fatal(err)
	}
	var pc *pageChart
	for _, c := range pageCharts(t, page.String()) {
		if c.Kind == "pareto" {
			pc = &c
		}
	}
	if pc == nil {
		t.Fatal("no pareto chart on the tune's page")
	}
	var titles []string
	for _, c := range buildCharts(in) {
		titles = append(titles, c.Title)
	}
	if want := []string{"Tune: memory limit against p99", "Memory over time", "Heap over time"}; !slices.Equal(titles, want) {
		t.Errorf("tune charts %q, want %q", titles, want)
	}
	layers := map[string]paretoSeries{}
	for _, s := range pc.Pareto {
		layers[s.Role] = s
	}
	if got := paretoIDs(layers["front"]); !slices.Equal(got, front) {
		t.Errorf("front series = %v, want the judge's %v", got, front)
	}
	var ok, ko []int64
	for _, r := range search {
		if r.Verdict == trial.OK {
			ok = append(ok, r.ID)
		} else {
			ko = append(ko, r.ID)
		}
	}
	if got := paretoIDs(layers["ok"]); !slices.Equal(got, ok) {
		t.Errorf("OK series = %v, want every OK search trial %v (not the profile, training or soak)", got, ok)
	}
	if got := paretoIDs(layers["ko"]); !slices.Equal(got, ko) {
		t.Errorf("KO series = %v, want %v", got, ko)
	}
	// The chosen point is the search trial the soak ran: 128Mi serial-c1.
	if got := paretoIDs(layers["chosen"]); len(got) != 1 || got[0] != search[1].ID {
		t.Errorf("chosen = %v, want [%d]", got, search[1].ID)
	}
	for _, p := range layers["front"].Points {
		if p.ID == search[5].ID && (p.Start != 3.5 || p.Y != 45 || p.X != 144 || p.Label != "Serial · C1 · -Xmx22m · app CDS") {
			t.Errorf("front point %+v: want 144 MiB, p99 45 ms, start 3.5 s, the app CDS label", p)
		}
		if p.ID == search[6].ID && p.Thr != 0 {
			t.Errorf("throttling of %+v, want 0", p)
		}
	}
	// A KO that never answered is drawn above every p99, not at zero.
	for _, p := range layers["ko"].Points {
		if p.ID == search[0].ID && (!p.Top || p.Y <= 300) {
			t.Errorf("oom-killed KO drawn at %+v, want on the top edge", p)
		}
	}
}

func TestTuneFrontTableInMarkdown(t *testing.T) {
	db, search := tuneFixtureDB(t)
	front := wantFront(t, search)
	var md bytes.Buffer
	if err := Markdown(&md, loadInput(t, db, "tune-filecache")); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	i := strings.Index(out, "### Pareto front of the search trials")
	if i < 0 {
		t.Fatalf("no front table in:\n%s", out)
	}
	var rows []string
	for _, line := range strings.Split(out[i:], "\n")[4:] {
		if !strings.HasPrefix(line, "| #") {
			break
		}
		rows = append(rows, line)
	}
	if len(rows) != len(front) {
		t.Fatalf("front table has %d rows, want %d:\n%s", len(rows), len(front), strings.Join(rows, "\n"))
	}
	for k, id := range front {
		if !strings.HasPrefix(rows[k], "| #"+itoa(int(id))+" |") {
			t.Errorf("row %d = %q, want trial #%d", k, rows[k], id)
		}
	}
	if want := "| #" + itoa(int(search[1].ID)) + " | 128Mi | Serial · C1 · -Xmx22m | 40.0ms | 5.0s | 1.0% |"; !strings.HasPrefix(rows[0], want) || !strings.HasSuffix(rows[0], "| chosen |") {
		t.Errorf("first row = %q, want it to start %q and be marked chosen", rows[0], want)
	}
	if strings.Count(out, "| chosen |") != 1 {
		t.Errorf("want exactly one chosen row")
	}
}

// A tune stored without a soak (--soak 0, or interrupted) marks nothing,
// and one without search trials draws no chart.
func TestTuneChartWithoutSoakOrSearch(t *testing.T) {
	db, search := tuneFixtureDB(t)
	in := loadInput(t, db, "tune-filecache")
	var noSoak []*trial.Result
	for _, r := range in.Trials {
		if !r.Spec.Soak {
			noSoak = append(noSoak, r)
		}
	}
	c := paretoChart(noSoak)
	if c == nil {
		t.Fatal("no chart")
	}
	for _, s := range c.Pareto {
		if s.Role == "chosen" {
			t.Errorf("chosen %v without a soak", paretoIDs(s))
		}
	}
	if got := len(c.Pareto[0].Points) + len(c.Pareto[1].Points); got != len(search) {
		t.Errorf("%d points, want %d", got, len(search))
	}
	if c := paretoChart(in.Trials[:2]); c != nil {
		t.Errorf("a chart from the profile and training alone: %+v", c)
	}
}

// The descriptor's own jvm_options can follow the candidate's in a search
// trial's options; the soak's candidate options still find their trial.
func TestTuneChosenWithDescriptorOptions(t *testing.T) {
	db, search := tuneFixtureDB(t)
	in := loadInput(t, db, "tune-filecache")
	for _, r := range in.Trials {
		if !r.Spec.Soak {
			r.Spec.JVMOptions = append(r.Spec.JVMOptions, "-Dapp.mode=demo")
		}
	}
	s := tuneSearchTrials(in.Trials)
	if c := tuneChosen(in.Trials, s); c == nil || c.ID != search[1].ID {
		t.Errorf("chosen %v, want #%d", c, search[1].ID)
	}
}
