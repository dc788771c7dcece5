package tune

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The answer carries planned against measured non-heap (issue 24, item
// 1: shown at each answer): the launcher's plan at the answer's limit with
// the answer's profile, against what that profile's trial measured, and
// the heap's reason naming each margin. A real profile (filecache under
// C1, measured by a trial) and the real planner; the planned non-heap is
// within the bound the planner test holds it to.
func TestAnswerShowsPlannedAgainstMeasuredNonHeap(t *testing.T) {
	prof, err := plan.LoadProfile("../../plan/testdata/filecache-c1-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{CPUs: 1, Goal: plan.Footprint, Budget: 10, Soak: time.Minute, JDK: 17}.withDefaults()
	p := Point{Purpose: PurposeSearch, MemoryBytes: 128 * tmib, CPUs: 1, Candidate: "serial-c1",
		Options: []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}, Profile: prof}
	soak := p
	soak.Purpose, soak.Soak = PurposeSoak, time.Minute
	s := &searcher{cfg: cfg, res: &Result{Goal: plan.Footprint, Chosen: 0,
		Trials: []Trial{{Point: p, Outcome: Outcome{Verdict: trial.OK}}},
		Soaks:  []Trial{{Point: soak, Outcome: Outcome{Verdict: trial.OK}}}}}
	s.answer()
	r := s.res
	pl, err := cfg.Planner(soak)
	if err != nil {
		t.Fatal(err)
	}
	nh := r.NonHeap
	if r.Verdict != Proven || nh.MeasuredBytes != plan.MeasuredNonHeap(prof) || nh.PlannedBytes != pl.Total()-pl.HeapBytes() {
		t.Fatalf("%s: non-heap %+v; want planned %d against measured %d", r.Verdict, nh, pl.Total()-pl.HeapBytes(), plan.MeasuredNonHeap(prof))
	}
	if bound := nh.MeasuredBytes + nh.MeasuredBytes/20 + 5*tmib + pl.Region(plan.RegGC).Bytes; nh.PlannedBytes < nh.MeasuredBytes*9/10 || nh.PlannedBytes > bound {
		t.Errorf("planned %d MiB against %d MiB measured: outside measured..+10%%+4MiB", nh.PlannedBytes/tmib, nh.MeasuredBytes/tmib)
	}
	if nh.Why == "" {
		t.Error("no reason for the heap")
	}
	// Without a measured native there is nothing to show.
	s.res.Soaks[0].Point.Profile = &plan.Profile{Version: 1, LiveHeapBytes: 20 * tmib}
	s.res.NonHeap = NonHeap{}
	s.answer()
	if s.res.NonHeap.MeasuredBytes != 0 {
		t.Errorf("a profile without native: %+v", s.res.NonHeap)
	}
}
