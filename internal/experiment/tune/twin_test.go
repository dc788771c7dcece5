package tune

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A tiered challenger whose C1 twin the kernel killed at the edge less a
// step, with the same heap, is dropped untried: C2 only adds to the
// non-heap that did not fit. Here every JVM but the launcher's needs more
// non-heap than it, so each C1 pair is killed at the edge less a step.
func TestTieredDroppedWhereItsC1TwinWasKilled(t *testing.T) {
	a := &leanApp{planner: LauncherPlanner(17, plan.Footprint), live: 40 * tmib,
		nonHeap: map[string]int64{LauncherName: 96 * tmib, "serial-tiered": 130 * tmib, "parallel-tiered": 134 * tmib}, def: 100 * tmib}
	r, inc := a.tune(t)
	at := inc.MinOKBytes - 8*tmib
	ran := map[string]bool{}
	for _, p := range a.runs {
		if p.Purpose == PurposeSearch && p.MemoryBytes == at {
			ran[p.Candidate] = true
		}
	}
	dropped := 0
	for _, pair := range []string{"serial", "parallel"} {
		c1, tiered := candidateResult(r, pair+"-c1"), candidateResult(r, pair+"-tiered")
		if c1 == nil || tiered == nil {
			t.Fatalf("no %s-c1 or %s-tiered among the candidates\n%s", pair, pair, searchLog(r))
		}
		tw, ok := lastAt(r, c1.Name, at)
		if !ok || tw.Outcome.Kind != trial.KindOOMKilled {
			continue // the twin did not meet the kernel there: the rule says nothing
		}
		if ran[tiered.Name] {
			t.Errorf("%s ran at %s, where %s was killed with the same heap\n%s", tiered.Name, size.Format(at), c1.Name, searchLog(r))
		}
		if !strings.Contains(tiered.Dropped, "C1 twin "+c1.Name) {
			t.Errorf("%s dropped for %q, want its C1 twin named", tiered.Name, tiered.Dropped)
		}
		dropped++
	}
	if dropped == 0 {
		t.Fatalf("no C1 pair was killed at %s: the test tests nothing\n%s", size.Format(at), searchLog(r))
	}
	if r.Verdict != Proven || r.MemoryBytes != inc.MinOKBytes {
		t.Errorf("%q at %s, want the launcher's edge %s proven", r.Verdict, size.Format(r.MemoryBytes), size.Format(inc.MinOKBytes))
	}
}

// A C1 twin that missed the SLO says nothing of its tiered pair, which
// C2 may carry; nor does a kill with another heap.
func TestTwinRuleNeedsAKillWithTheSameHeap(t *testing.T) {
	s := &searcher{res: &Result{Goal: plan.Footprint}}
	c1 := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-c1", Options: join(gcOptions("serial", 1), jitOptions("c1"), []string{"-Xss256k"})}}}
	tiered := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-tiered", Options: join(gcOptions("serial", 1), jitOptions("tiered"), []string{"-Xss256k"})}}}
	s.cands = []*cand{c1, tiered}
	if s.c1Twin(tiered) != c1 || s.c1Twin(c1) != nil {
		t.Fatalf("twins: %v %v", s.c1Twin(tiered), s.c1Twin(c1))
	}
	at, heap := 200*tmib, 54*tmib
	add := func(kind trial.Kind, h int64) {
		s.res.Trials = append(s.res.Trials, Trial{Point: Point{Purpose: PurposeSearch, Candidate: c1.Name, MemoryBytes: at,
			Options: challengeOptions(c1, c1.Options, h)}, Outcome: Outcome{Verdict: trial.KO, Kind: kind}})
	}
	for _, c := range []struct {
		kind trial.Kind
		heap int64
		drop bool
	}{
		{trial.KindSLO, heap, false},
		{trial.KindJavaOOM, heap, false},
		{trial.KindOOMKilled, 60 * tmib, false},
		{trial.KindOOMKilled, heap, true},
		{trial.KindMemoryStall, heap, true},
	} {
		add(c.kind, c.heap)
		if got := s.twinKilled(tiered, at, heap) != ""; got != c.drop {
			t.Errorf("twin %s with -Xmx%s: dropped %v, want %v", c.kind, size.JVM(c.heap), got, c.drop)
		}
	}
	s.res.Goal = plan.Balanced
	if s.twinKilled(tiered, at, heap) != "" {
		t.Error("balanced dropped a tiered candidate on its twin's kill: its cost weighs more than memory")
	}
}

// lastAt is candidate name's latest search trial at mem.
func lastAt(r *Result, name string, mem int64) (Trial, bool) {
	for i := len(r.Trials) - 1; i >= 0; i-- {
		if t := r.Trials[i]; t.Point.Purpose == PurposeSearch && t.Point.Candidate == name && t.Point.MemoryBytes == mem {
			return t, true
		}
	}
	return Trial{}, false
}

// A kill of the twin at a larger limit with the same heap speaks for a
// smaller one too (catalog: serial-c1 killed at 224Mi with -Xmx56m, then
// the new incumbent's edge less a step was 192Mi with the same heap); a
// kill at a smaller limit says nothing of a larger one.
func TestTwinKilledAboveCounts(t *testing.T) {
	s := &searcher{res: &Result{Goal: plan.Footprint}}
	c1 := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-c1", Options: join(gcOptions("serial", 1), jitOptions("c1"))}}}
	tiered := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-tiered", Options: join(gcOptions("serial", 1), jitOptions("tiered"))}}}
	s.cands = []*cand{c1, tiered}
	heap := 56 * tmib
	s.res.Trials = append(s.res.Trials, Trial{Point: Point{Purpose: PurposeSearch, Candidate: c1.Name, MemoryBytes: 184 * tmib,
		Options: challengeOptions(c1, c1.Options, heap)}, Outcome: Outcome{Verdict: trial.KO, Kind: trial.KindOOMKilled}})
	if why := s.twinKilled(tiered, 192*tmib, heap); why != "" {
		t.Errorf("a kill at 184Mi dropped the tiered pair at 192Mi: %s", why)
	}
	s.res.Trials = append(s.res.Trials, Trial{Point: Point{Purpose: PurposeSearch, Candidate: c1.Name, MemoryBytes: 224 * tmib,
		Options: challengeOptions(c1, c1.Options, heap)}, Outcome: Outcome{Verdict: trial.KO, Kind: trial.KindOOMKilled}})
	why := s.twinKilled(tiered, 192*tmib, heap)
	if !strings.Contains(why, "at 224Mi") {
		t.Errorf("a kill at 224Mi with the same heap: %q, want the tiered pair dropped at 192Mi naming 224Mi", why)
	}
}
