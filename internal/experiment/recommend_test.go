package experiment

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func TestMargin(t *testing.T) {
	cases := []struct {
		minOK, precision, noise, wantLimit int64
		why                                string
	}{
		{100 * mi, 8 * mi, 0, 128 * mi, "16 MiB"}, // floor: 116 → 128
		{208 * mi, 8 * mi, 0, 240 * mi, "10%"},    // 20.8 MiB → 228.8 → 240
		{600 * mi, 8 * mi, 0, 672 * mi, "10%"},    // 60 MiB → 660 → 672
		{144 * mi, 8 * mi, 40 * mi, 192 * mi, "at least 40Mi, the band"},
		{96 * mi, 32 * mi, 0, 128 * mi, "precision"},
	}
	for _, c := range cases {
		m, why := Margin(c.minOK, c.precision, c.noise)
		if c.minOK+m != c.wantLimit || !strings.Contains(why, c.why) {
			t.Errorf("Margin(%s, %s, %s) = %s (%q), want limit %s (%q)", size.Format(c.minOK), size.Format(c.precision), size.Format(c.noise),
				size.Format(m), why, size.Format(c.wantLimit), c.why)
		}
		if (c.minOK+m)%(16*mi) != 0 {
			t.Errorf("limit %s is not a multiple of 16 MiB", size.Format(c.minOK+m))
		}
	}
}

func TestRecommendPicksSmallestAndExplains(t *testing.T) {
	cands := []Candidate{
		{JVM: "default", CPUs: 1, MinOK: 208 * mi, Precision: 8 * mi, Edge: true, Throughput: 100},
		{JVM: "jvmfit", CPUs: 1, MinOK: 136 * mi, Precision: 8 * mi, Edge: true, Throughput: 99},
		{JVM: "set:tiny", CPUs: 1, MinOK: 0}, // never passed
	}
	var asked int64
	rec, err := Recommend(cands, func(jvm, java string, mem int64, cpus float64) ([]string, error) {
		asked = mem
		return []string{"-XX:+UseSerialGC", "-Xmx72m"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rec.JVM != "jvmfit" || rec.MinOKBytes != 136*mi || rec.MemoryBytes != 160*mi || asked != 160*mi {
		t.Fatalf("got %+v (options asked at %s); want jvmfit, 136Mi → 160Mi", rec, size.Format(asked))
	}

	// Not at the edge (nothing smaller failed): no margin is added.
	rec, err = Recommend([]Candidate{{JVM: "default", CPUs: 0.5, MinOK: 512 * mi}}, nil)
	if err != nil || rec.MemoryBytes != 512*mi || rec.MarginBytes != 0 || len(rec.Options) != 0 {
		t.Fatalf("tested limit: %+v, %v", rec, err)
	}

	if _, err := Recommend([]Candidate{{JVM: "default", CPUs: 1}}, nil); err == nil {
		t.Fatal("no passing candidate must be an error")
	}
}

func TestTieBreakers(t *testing.T) {
	rec, _ := Recommend([]Candidate{
		{JVM: "a", CPUs: 2, MinOK: 256 * mi, Footprint: 100 * mi},
		{JVM: "b", CPUs: 1, MinOK: 256 * mi, Footprint: 200 * mi},
		{JVM: "c", CPUs: 1, MinOK: 256 * mi, Footprint: 150 * mi},
	}, nil)
	if rec.JVM != "c" {
		t.Fatalf("picked %s; want c (fewest CPUs, then the smaller peak)", rec.JVM)
	}
}

func TestParseAxes(t *testing.T) {
	rates, err := ParseNumbers("rate", "100..1000/100")
	if err != nil || len(rates) != 10 || rates[0] != 100 || rates[9] != 1000 {
		t.Fatalf("rates %v, %v", rates, err)
	}
	cpus, err := ParseNumbers("cpus", "0.5,1, 2,1,0.1..0.3/0.1")
	if err != nil || len(cpus) != 6 || cpus[5] != 0.3 {
		t.Fatalf("cpus %v, %v", cpus, err)
	}
	mems, err := ParseSizes("memory", "256Mi..1Gi/256Mi,2Gi")
	if err != nil || len(mems) != 5 || mems[3] != size.GiB || mems[4] != 2*size.GiB {
		t.Fatalf("memory %v, %v", mems, err)
	}
	for _, bad := range []string{"", "100..", "100..50/10", "100..200", "a,b", "0", "1..100000/1", "-5", "100..200/0"} {
		if _, err := ParseNumbers("rate", bad); err == nil || !strings.Contains(err.Error(), "--rate") {
			t.Errorf("%q: error %v, want one naming --rate", bad, err)
		}
	}
	if got := ParseList(" default, jvmfit,,default "); len(got) != 2 || got[1] != "jvmfit" {
		t.Fatalf("ParseList: %v", got)
	}
}

func TestCellsOrderRateFastest(t *testing.T) {
	ax := Axes{CPUs: []float64{1, 2}, Rates: []float64{100, 200, 300}, JVMs: []string{"default", "jvmfit"}}
	cells := ax.Cells(trialSpec(512 * mi))
	if len(cells) != 12 {
		t.Fatalf("%d cells, want 12", len(cells))
	}
	if cells[0].Rate != 100 || cells[1].Rate != 200 || cells[3].CPUs != 2 || cells[6].JVM != "jvmfit" || cells[11].MemoryBytes != 512*mi {
		t.Fatalf("order: %v", cells)
	}
}

func TestLoadSets(t *testing.T) {
	_, names, err := LoadSets("seed001")
	if err != nil || strings.Join(names, ",") != "pardef,serdef,seropt,paropt" {
		t.Fatalf("seed001: %v, %v", names, err)
	}
	if _, _, err := LoadSets("/nonexistent.yaml"); err == nil || !strings.Contains(err.Error(), "--sets") {
		t.Fatalf("missing file: %v", err)
	}
}

func trialSpec(mem int64) trial.Spec { return trial.Spec{JVM: "default", CPUs: 1, MemoryBytes: mem} }

func TestSweepCandidates(t *testing.T) {
	cell := func(cpus float64, mem int64, rate float64, v trial.Verdict, peak int64) CellResult {
		c := Cell{JVM: "jvmfit", CPUs: cpus, MemoryBytes: mem, Rate: rate}
		return CellResult{Cell: c, Result: &trial.Result{Verdict: v, MemoryPeakBytes: peak, Spec: c.Spec(trial.Spec{})}}
	}
	cells := []CellResult{
		cell(1, 256*mi, 100, trial.OK, 200*mi), cell(1, 256*mi, 400, trial.KO, 0),
		cell(1, 512*mi, 100, trial.OK, 300*mi), cell(1, 512*mi, 400, trial.KO, 0),
		cell(2, 256*mi, 100, trial.OK, 210*mi), cell(2, 256*mi, 400, trial.KO, 0),
		cell(2, 512*mi, 100, trial.OK, 320*mi), cell(2, 512*mi, 400, trial.OK, 330*mi),
	}
	cs := SweepCandidates(cells)
	if len(cs) != 2 {
		t.Fatalf("%d candidates at the target rate, want one per CPU count: %+v", len(cs), cs)
	}
	// Only 2 CPUs passed at 400 req/s, at 512Mi, with 256Mi failing: an edge.
	if cs[0].MinOK != 0 || cs[1].MinOK != 512*mi || !cs[1].Edge || cs[1].CPUs != 2 {
		t.Fatalf("candidates %+v", cs)
	}
	rec, err := Recommend(cs, nil)
	if err != nil || rec.CPUs != 2 || rec.MemoryBytes != 576*mi || !strings.Contains(rec.Why, "400 req/s") {
		t.Fatalf("recommendation %+v, %v", rec, err)
	}
}
