package report

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// The trial a chart opens on: the minimum-OK trial by minmem's rule, else
// (a sweep at one limit) the OK trial at the highest rate, else the trial
// nearest to passing, or none when only OK trials may open a chart.
func TestShownTrial(t *testing.T) {
	id := int64(0)
	mk := func(memMiB int64, rate float64, v trial.Verdict, kind trial.Kind) *trial.Result {
		id++
		return &trial.Result{ID: id, Spec: trial.Spec{JVM: "jvmfit", CPUs: 1, MemoryBytes: memMiB * mb, Rate: rate}, Verdict: v, Kind: kind}
	}
	oom, ok, ko := trial.KindOOMKilled, trial.OK, trial.KO
	lucky, fail, edge, above := mk(96, 100, ok, ""), mk(104, 100, ko, oom), mk(112, 100, ok, ""), mk(128, 100, ok, "")
	repeat := mk(112, 100, ok, "")
	soak := mk(112, 100, ko, oom)
	soak.Spec.Soak = true
	search := []*trial.Result{lucky, fail, edge, above, repeat, soak}
	if got := shownTrial(search, search, true); got != repeat {
		t.Errorf("minmem: shown #%d, want #%d (the latest run at the minimum OK limit; the lucky pass and the soak ignored)", got.ID, repeat.ID)
	}
	// The minimum-OK trial has no samples: the best other candidate.
	if got := shownTrial(search, []*trial.Result{lucky, fail, above}, true); got != above {
		t.Errorf("without the edge: shown #%d, want #%d", got.ID, above.ID)
	}
	// A sweep: one limit, most rates failed, so no limit passes by
	// majority; the chart opens on the OK run at the highest rate.
	r100, r200, r300, r400, r500 := mk(512, 100, ok, ""), mk(512, 200, ok, ""), mk(512, 300, ko, trial.KindSLO), mk(512, 400, ko, trial.KindSLO), mk(512, 500, ko, trial.KindSLO)
	sweep := []*trial.Result{r100, r200, r300, r400, r500}
	if got := shownTrial(sweep, sweep, true); got != r200 {
		t.Errorf("sweep: shown #%d, want #%d", got.ID, r200.ID)
	}
	// Nothing passed: the highest limit for NMT (a chart must show one),
	// nothing for the time charts.
	k1, k2 := mk(512, 100, ko, trial.KindSLO), mk(1024, 100, ko, trial.KindSLO)
	none := []*trial.Result{k2, k1}
	if got := shownTrial(none, none, false); got != k2 {
		t.Errorf("no OK: shown #%d, want #%d", got.ID, k2.ID)
	}
	if got := shownTrial(none, none, true); got != nil {
		t.Errorf("no OK, OK only: shown #%d, want none", got.ID)
	}
}
