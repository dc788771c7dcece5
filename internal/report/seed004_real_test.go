package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The trials of a real bench/seed004.sh run (the sidecar, JDK 25, one
// minmem experiment per rate; `jvmfit report -f json` with the series left
// out) and what each minmem answered itself (its --json min_ok_bytes per
// mode), read into a fresh SQLite store: the report's curve is each
// search's own answer, and its RSS and CPU cells are those of the trial
// that passed there.
func TestSeed004RateCurveRealTrials(t *testing.T) {
	raw, err := os.ReadFile("testdata/seed004-trials.json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []*trial.Result
	if err := json.Unmarshal(raw, &trials); err != nil {
		t.Fatal(err)
	}
	raw, err = os.ReadFile("testdata/seed004-answers.json")
	if err != nil {
		t.Fatal(err)
	}
	var answers map[string]map[string]int64 // rate → mode → minmem's min_ok_bytes
	if err := json.Unmarshal(raw, &answers); err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "seed004.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	exps := map[string]int64{}
	var names []string
	for _, r := range trials {
		id, ok := exps[r.Experiment]
		if !ok {
			if id, err = s.NewExperiment(r.Experiment, store.KindMinMem, map[string]any{"rate": r.Spec.Rate}); err != nil {
				t.Fatal(err)
			}
			exps[r.Experiment] = id
			names = append(names, r.Experiment)
		}
		r.ID = 0
		if _, err := s.SaveTrial(id, r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if len(names) < 2 {
		t.Fatalf("the real run has %d experiments; want one per rate, two or more", len(names))
	}
	var ins []Input
	for _, n := range names {
		ins = append(ins, loadInput(t, path, n))
	}

	tbl := RateCurveTable(searchTrials(ins))
	if tbl == nil {
		t.Fatal("no curve from the real searches")
	}
	col := map[string]int{}
	for i, h := range tbl.Header {
		col[h] = i
	}
	rows := 0
	for rate, modes := range answers {
		for mode, want := range modes {
			var row []string
			for _, r := range tbl.Rows {
				if r[0] == mode && r[1] == rate {
					row = r
				}
			}
			if row == nil {
				t.Errorf("no row for %s at %s req/s", mode, rate)
				continue
			}
			rows++
			if got := row[col["Memory needed"]]; want > 0 && got != size.Format(want) || want == 0 && got != dash {
				t.Errorf("%s at %s: %s; minmem answered %s", mode, rate, got, size.Format(want))
			}
			if want == 0 {
				continue
			}
			// The cells are the OK search trial's at that limit.
			var at *trial.Result
			rt, _ := strconv.ParseFloat(rate, 64)
			for _, r := range trials {
				if r.Spec.JVM == mode && r.Spec.Rate == rt && r.Spec.MemoryBytes == want && r.Verdict == trial.OK && !r.Spec.Soak {
					at = r
				}
			}
			if at == nil {
				t.Fatalf("%s at %s: no OK trial at %s in the data", mode, rate, size.Format(want))
			}
			if row[col["RSS peak (MiB)"]] != mib(at.Summary.RSSPeak) || row[col["CPU (s)"]] != seconds(at.Summary.CPUTime) ||
				row[col["Cgroup peak (MiB)"]] != mib(at.MemoryPeakBytes) || row[col["p999"]] != ms(at.Load.Latencies.P999) {
				t.Errorf("%s at %s: %v; want RSS %s, CPU %s, cgroup %s, p999 %s", mode, rate, row,
					mib(at.Summary.RSSPeak), seconds(at.Summary.CPUTime), mib(at.MemoryPeakBytes), ms(at.Load.Latencies.P999))
			}
			if at.Summary.RSSPeak <= 0 || at.Summary.CPUTime <= 0 {
				t.Errorf("%s at %s: the real trial has no RSS or CPU (%d, %s)", mode, rate, at.Summary.RSSPeak, at.Summary.CPUTime)
			}
		}
	}
	if rows != len(tbl.Rows) {
		t.Errorf("%d rows, %d answers: %v", len(tbl.Rows), rows, tbl.Rows)
	}

	// The page's chart has a line per mode that passed somewhere, with a
	// point per rate it passed at.
	var page bytes.Buffer
	if err := HTMLAll(&page, ins, "test"); err != nil {
		t.Fatal(err)
	}
	c := rateCurveChart(searchTrials(ins))
	if c == nil {
		t.Fatal("no chart")
	}
	for _, sr := range c.Series {
		for _, p := range sr.Points {
			want := answers[num(p[0])][sr.Name]
			if int64(p[1]*float64(size.MiB)) != want {
				t.Errorf("chart %s at %g: %g MiB; minmem answered %s", sr.Name, p[0], p[1], size.Format(want))
			}
		}
	}
	if !strings.Contains(page.String(), `"title":"Memory needed against the rate"`) {
		t.Error("the page's data has no curve")
	}
}
