package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// seed004Cell is one search trial of the fixture: an option set at a rate
// and a limit, its verdict, and for an OK the figures the table shows.
type seed004Cell struct {
	jvm    string
	memMiB int64
	ok     bool
	rssMiB int64
	cpu    time.Duration
	soak   bool
}

// seed004DB stores four minmem experiments, one per rate (100, 1000, 5000
// and a saturation rate of 7200), over the seed's four option sets, in a
// real SQLite store. Each search brackets its answer; default at 1000 has
// a lucky pass below a failure (not its answer) and every search has a
// soak at a higher limit (not part of it); c1 never passes at 5000.
func seed004DB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seed004.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rates := []float64{100, 1000, 5000, 7200}
	// per option set: the answer (MiB) at each rate; 0 = nothing passed
	answers := map[string][]int64{
		"default":          {176, 208, 272, 336},
		"set:c1":           {144, 160, 0, 0},
		"jvmfit:footprint": {104, 120, 168, 224},
		"set:tune":         {96, 112, 152, 200},
	}
	order := []string{"default", "set:c1", "jvmfit:footprint", "set:tune"}
	n := 0
	for ri, rt := range rates {
		exp, err := s.NewExperiment(fmt.Sprintf("seed004-minmem-%g", rt), store.KindMinMem, map[string]any{"rate": rt})
		if err != nil {
			t.Fatal(err)
		}
		for _, jvm := range order {
			a := answers[jvm][ri]
			var cells []seed004Cell
			if a == 0 {
				cells = []seed004Cell{{jvm: jvm, memMiB: 256}, {jvm: jvm, memMiB: 512}}
			} else {
				cells = []seed004Cell{
					{jvm: jvm, memMiB: a - 8}, // the highest KO
					{jvm: jvm, memMiB: a * 2, ok: true, rssMiB: a*2 - 30, cpu: 9 * time.Second},
					{jvm: jvm, memMiB: a, ok: true, rssMiB: a - 12 - int64(ri), cpu: time.Duration(10+ri) * time.Second},
					{jvm: jvm, memMiB: a + 16, ok: true, rssMiB: a, cpu: 12 * time.Second, soak: true},
				}
				if jvm == "default" && rt == 1000 {
					cells = append(cells, seed004Cell{jvm: jvm, memMiB: a - 24, ok: true, rssMiB: 150, cpu: time.Second})
				}
			}
			for _, c := range cells {
				r := seed004Trial(c, rt, n)
				r.Key = r.Spec.Key()
				if _, err := s.SaveTrial(exp, r); err != nil {
					t.Fatal(err)
				}
				n++
			}
		}
		if err := s.EndExperiment(exp); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func seed004Trial(c seed004Cell, rt float64, n int) *trial.Result {
	sy := synth{app: "sidecar", cpus: 1, memMiB: c.memMiB, jvm: c.jvm, jdk: 25, rate: rt, thr: rt * 0.999, success: 1,
		p50: 300 * time.Microsecond, p99: 800 * time.Microsecond, start: 1.2, heapMiB: c.memMiB / 3}
	if !c.ok {
		sy.kind = trial.KindOOMKilled
	}
	r := sy.result(n)
	r.Spec.Soak = c.soak
	r.Spec.SLO = "p99<=1ms,p999<=5ms,success>=0.999,throughput>=0.95*rate"
	if c.ok {
		r.Load.Latencies.P999 = 3 * time.Millisecond
		r.Summary.RSSPeak = c.rssMiB * mb
		r.Summary.CPUTime = c.cpu
		r.WorkingSetPeakBytes = (c.rssMiB + 4) * mb
	}
	return r
}

// The book of the four searches gains seed 004's chart (one line per
// option set, memory needed against the rate, soaks and lucky passes left
// out) and its table with the RSS and CPU of the trial at each answer.
func TestSeed004RateCurve(t *testing.T) {
	db := seed004DB(t)
	var ins []Input
	for _, rt := range []string{"100", "1000", "5000", "7200"} {
		ins = append(ins, loadInput(t, db, "seed004-minmem-"+rt))
	}

	var page bytes.Buffer
	if err := HTMLAll(&page, ins, "test"); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="jvmfit-data">(.*?)</script>`).FindStringSubmatch(page.String())
	if m == nil {
		t.Fatal("no data block in the page")
	}
	var data struct {
		Charts []struct {
			Title  string     `json:"title"`
			Kind   string     `json:"kind"`
			Series []xySeries `json:"series"`
		} `json:"charts"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Charts) == 0 || data.Charts[0].Title != "Memory needed against the rate" || data.Charts[0].Kind != "xy" {
		t.Fatalf("first chart %+v; want the seed's curve first", data.Charts)
	}
	got := map[string][][2]float64{}
	var names []string
	for _, s := range data.Charts[0].Series {
		got[s.Name] = s.Points
		names = append(names, s.Name)
	}
	want := map[string][][2]float64{
		"default":          {{100, 176}, {1000, 208}, {5000, 272}, {7200, 336}},
		"set:c1":           {{100, 144}, {1000, 160}}, // nothing passed at 5000 or 7200
		"jvmfit:footprint": {{100, 104}, {1000, 120}, {5000, 168}, {7200, 224}},
		"set:tune":         {{100, 96}, {1000, 112}, {5000, 152}, {7200, 200}},
	}
	if strings.Join(names, ",") != "default,jvmfit:footprint,set:c1,set:tune" {
		t.Errorf("series %v; want one per option set, in the report's order of modes", names)
	}
	for k, w := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(w) {
			t.Errorf("%s: %v; want %v", k, got[k], w)
		}
	}
	if !strings.Contains(page.String(), "<h2 class=\"experiment-title\">Memory needed against the rate</h2>") {
		t.Error("the page has no section for the curve")
	}

	var md bytes.Buffer
	if err := MarkdownAll(&md, ins); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	tbl := RateCurveTable(searchTrials(ins))
	if tbl == nil {
		t.Fatal("no curve table")
	}
	col := map[string]int{}
	for i, h := range tbl.Header {
		col[h] = i
	}
	for _, h := range []string{"Memory needed", "Cgroup peak (MiB)", "Working set peak (MiB)", "RSS peak (MiB)", "CPU (s)", "CPU (cores)", "p99", "p999"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("header %v lacks %q", tbl.Header, h)
		}
	}
	row := func(set, rt string) []string {
		for _, r := range tbl.Rows {
			if r[0] == set && r[1] == rt {
				return r
			}
		}
		t.Fatalf("no row for %s at %s", set, rt)
		return nil
	}
	// default at 1000: 208Mi (the lucky 184Mi pass sits below a KO), its
	// OK trial's RSS 208-12-1 = 195 MiB, CPU 11 s over a 50 s trial.
	r := row("default", "1000")
	if r[col["Memory needed"]] != "208Mi" || r[col["Highest KO"]] != "200Mi" || r[col["RSS peak (MiB)"]] != "195.0" ||
		r[col["Working set peak (MiB)"]] != "199.0" || r[col["CPU (s)"]] != "11.00" || r[col["CPU (cores)"]] != "0.22" ||
		r[col["p999"]] != "3.0ms" || r[col["p99"]] != "0.800ms" {
		t.Errorf("default at 1000: %v", r)
	}
	if r := row("set:tune", "7200"); r[col["Memory needed"]] != "200Mi" || r[col["RSS peak (MiB)"]] != "185.0" || r[col["CPU (s)"]] != "13.00" {
		t.Errorf("tune at 7200: %v; want its search's answer, not the soak's limit or RSS", r)
	}
	if r := row("set:c1", "5000"); r[col["Memory needed"]] != dash || r[col["RSS peak (MiB)"]] != dash {
		t.Errorf("c1 at 5000: %v; want dashes (nothing passed)", r)
	}
	if !strings.Contains(out, "## Memory needed against the rate") || !strings.Contains(out, "set:tune at 1000 req/s: 112Mi, 0.54× default's 208Mi") {
		t.Errorf("the Markdown lacks the curve or its ratios:\n%s", out[:min(len(out), 3000)])
	}
	if strings.Index(out, "## Memory needed against the rate") > strings.Index(out, "## seed004-minmem-100") {
		t.Error("the curve comes after the experiments' sections; want it under the overview")
	}

	// One experiment at one rate has no curve.
	var one bytes.Buffer
	if err := Markdown(&one, ins[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(one.String(), "Memory needed against the rate") {
		t.Error("a single rate drew the curve")
	}
}
