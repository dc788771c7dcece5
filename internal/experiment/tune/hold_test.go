package tune

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Issue 24, item 2: a simulated app whose edge passes short trials and
// fails long ones (every candidate needs 12 MiB more for the soak's
// length). Whatever the budget, tune never answers a limit that no trial
// as long as the soak passed at, and with a roomy budget it answers the
// held edge, proven.
func TestTuneNeverAnswersAnEdgeNotHeldForTheSoak(t *testing.T) {
	for budget := 7; budget <= 60; budget++ {
		a := footprintApp()
		a.longExtra = 12 * tmib
		r, err := Run(context.Background(), simConfig(a, plan.Footprint, budget), a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Used() > budget {
			t.Fatalf("budget %d: used %d", budget, r.Used())
		}
		if r.Verdict == None {
			if r.MemoryBytes != 0 {
				t.Errorf("budget %d: no verdict but an answer of %d MiB", budget, r.MemoryBytes/tmib)
			}
			continue
		}
		held := false
		for _, tr := range r.Trials {
			if tr.Point.Soak >= r.Trials[0].Point.Soak && tr.Point.Soak > 0 && tr.Outcome.Verdict == trial.OK &&
				tr.Point.Candidate == r.Candidate && tr.Point.MemoryBytes == r.MemoryBytes {
				held = true
			}
		}
		if !held {
			t.Errorf("budget %d: answered %s at %d MiB (%s), which no trial as long as the soak passed\n%s",
				budget, r.Candidate, r.MemoryBytes/tmib, r.Verdict, searchLog(r))
		}
		if min := a.cand(r.Candidate).min + a.longExtra; r.MemoryBytes < min {
			t.Errorf("budget %d: answered %d MiB, below the %d MiB the app holds for the soak's length", budget, r.MemoryBytes/tmib, min/tmib)
		}
		if budget >= 40 && r.Verdict != Proven {
			t.Errorf("budget %d: %q, want proven", budget, r.Verdict)
		}
	}
	// The held edge is one of the search's points, rerun long and stored
	// as a repeat (the store's role), not a soak.
	a := footprintApp()
	a.longExtra = 12 * tmib
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 60), a)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Trials[r.Chosen].Point
	if c.Purpose != PurposeSearch || c.Repeat != 1 || c.Soak != simConfig(a, plan.Footprint, 60).Soak {
		t.Errorf("the chosen point %s is not a search point held as long as the soak", c)
	}
	if r.MemoryBytes != 112*tmib {
		t.Errorf("answer %d MiB; want 112 (serial-c1-noshare needs 93 + 12 for the soak's length, on the 8 MiB grid)\n%s", r.MemoryBytes/tmib, searchLog(r))
	}
}

// The hole after a held edge: the soak, run as recommended (through
// jvmfit exec, with the candidate's own profile), needs more than the
// held search trial did, so it fails at the held edge. Before the fix, a
// budget spent there answered one step up, "not proven", at a limit no
// trial as long as the soak had passed. Whatever the budget, the answer is
// now a limit a soak passed at (proven), or none with the budget a proof
// needs; a kept trial soaks one step up.
func TestTuneNeverAnswersALimitNoLongTrialPassed(t *testing.T) {
	proven := 0
	for budget := 7; budget <= 60; budget++ {
		a := footprintApp()
		a.longExtra = 12 * tmib // held edge: 93 + 12 = 105 MiB, 112 on the grid
		a.soakExtra = 8 * tmib  // the soak: 113 MiB, so it fails at 112
		r, err := Run(context.Background(), simConfig(a, plan.Footprint, budget), a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Used() > budget {
			t.Fatalf("budget %d: used %d", budget, r.Used())
		}
		if r.Verdict == None {
			if r.MemoryBytes != 0 {
				t.Errorf("budget %d: none, but an answer of %d MiB", budget, r.MemoryBytes/tmib)
			}
			// The estimate prices a proof whose hold passes; here every
			// hold fails short of the edge that holds long, and climbs.
			if budget >= r.Cost.Trials+climbSteps && r.Cost.Trials > 0 {
				t.Errorf("budget %d, at least the estimate %d and a climb: none", budget, r.Cost.Trials)
			}
			// Whenever the proof stopped for the budget, the notes name the
			// budget it needs (catalog's first run said "--budget 0").
			if r.BudgetNeeded > 0 && (r.BudgetNeeded <= budget || !strings.Contains(strings.Join(r.Notes, "\n"), fmt.Sprintf("--budget %d ", r.BudgetNeeded))) {
				t.Errorf("budget %d: none, needs %d, notes %q", budget, r.BudgetNeeded, r.Notes)
			}
			if len(r.Soaks) > 0 && (r.BudgetNeeded <= budget || !strings.Contains(strings.Join(r.Notes, "\n"), "--budget")) {
				t.Errorf("budget %d: none after %d soaks without the budget it needs (%d): %q", budget, len(r.Soaks), r.BudgetNeeded, r.Notes)
			}
			continue
		}
		if r.Verdict != Proven {
			t.Errorf("budget %d: %q at %d MiB; with a soak the answer is proven or none", budget, r.Verdict, r.MemoryBytes/tmib)
		}
		passed := false
		for _, tr := range r.Trials {
			if tr.Point.Soak > 0 && tr.Outcome.Verdict == trial.OK && tr.Point.Candidate == r.Candidate && tr.Point.MemoryBytes == r.MemoryBytes {
				passed = true
			}
		}
		if !passed {
			t.Errorf("budget %d: answered %s at %d MiB (%s), which no trial as long as the soak passed\n%s",
				budget, r.Candidate, r.MemoryBytes/tmib, r.Verdict, searchLog(r))
		}
		if budget >= r.Cost.Trials+climbSteps && (r.Verdict != Proven || r.MemoryBytes != 120*tmib) {
			t.Errorf("budget %d, at least the estimate %d: %q at %d MiB; want proven at 120", budget, r.Cost.Trials, r.Verdict, r.MemoryBytes/tmib)
		}
		if need := a.cand(r.Candidate).min + a.longExtra + a.soakExtra; r.MemoryBytes < need {
			t.Errorf("budget %d: answered %d MiB, below the %d MiB the soak needs", budget, r.MemoryBytes/tmib, need/tmib)
		}
		proven++
	}
	// From tune's own estimate up, the kept trial turns the failed soak
	// at the held edge into a proof one step up: 113 MiB on the grid.
	if proven == 0 {
		t.Error("never proven")
	}
}

// Catalog's run: serial-c1-planner's hold failed at 240Mi (slo) and its
// climb passed a trial as long as the soak at 248Mi; serial-c1's 240Mi,
// passed only short, was then chosen, and one trial was left: no room to
// hold it and soak, and tune answered none. The point already held needs
// only its soak: tune proves that instead, without another trial first.
func TestHoldFallsBackToAPointAlreadyHeld(t *testing.T) {
	a := footprintApp()
	cfg := simConfig(a, plan.Footprint, 6).withDefaults()
	long := cfg.Soak
	at := func(cand string, mib int64, soak time.Duration, v trial.Verdict) Trial {
		p := Point{Purpose: PurposeSearch, MemoryBytes: mib * tmib, CPUs: 1, Candidate: cand, Soak: soak}
		if soak > 0 {
			p.Repeat = 1
		}
		return Trial{Point: p, Outcome: Outcome{Verdict: v, P99: 200 * time.Millisecond}}
	}
	s := &searcher{cfg: cfg, w: Weights{Memory: 1}, trials: a, top: cfg.Generous, res: &Result{Goal: plan.Footprint, Chosen: -1, Trials: []Trial{
		{Point: Point{Purpose: PurposeProfile, MemoryBytes: 1024 * tmib, CPUs: 1}, Outcome: Outcome{Verdict: trial.OK}},
		at("serial-c1", 240, 0, trial.OK),
		at("serial-c1-planner", 240, 0, trial.OK),
		at("serial-c1-planner", 240, long, trial.KO),
		at("serial-c1-planner", 248, long, trial.OK),
	}}}
	s.res.Chosen = s.choose()
	if c := s.res.Trials[s.res.Chosen].Point; c.Candidate != "serial-c1" || c.MemoryBytes != 240*tmib {
		t.Fatalf("the search's choice is %s; want serial-c1's unheld 240Mi (the setup)", c)
	}
	if err := s.hold(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(a.runs) != 0 {
		t.Errorf("hold ran %d trials with one left in the budget", len(a.runs))
	}
	if s.res.Chosen != 4 || s.res.BudgetNeeded != 0 {
		t.Fatalf("chosen %d (needs %d); want the point held at 248Mi (4)\n%q", s.res.Chosen, s.res.BudgetNeeded, s.res.Notes)
	}
	// The soak then proves it with the last trial.
	if err := s.soak(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.answer()
	if s.res.Verdict != Proven || s.res.MemoryBytes != 248*tmib || s.res.Candidate != "serial-c1-planner" || s.res.Used() != 6 {
		t.Errorf("%q at %d MiB, %s, %d trials; want proven at 248 MiB, serial-c1-planner, 6", s.res.Verdict, s.res.MemoryBytes/tmib, s.res.Candidate, s.res.Used())
	}
}
