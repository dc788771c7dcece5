package tune

import (
	"context"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// hold makes the chosen point earn its place: a search trial is 15-60 s,
// and an edge found that way can pass it and fail the soak (a Spring Boot
// 4 service passed 280Mi for 15 s and died of Java heap space in the 30 s
// soak, with the budget then spent: "288Mi, not proven"). Before a search
// point can be the answer, the same trial runs again as long as the soak
// (stored as a repeat). A KO there is a KO of the candidate at that
// limit: its OK trials at or below it are not held, and the next best
// point is held in turn. When the budget has no room for the long trial
// and the soak, tune answers nothing rather than an edge it did not hold.
func (s *searcher) hold(ctx context.Context) error {
	if s.cfg.Soak <= 0 {
		return nil
	}
	for s.res.Chosen >= 0 {
		t := s.res.Trials[s.res.Chosen]
		if t.Point.Soak >= s.cfg.Soak {
			return nil // held already
		}
		if s.res.Used()+2 > s.cfg.Budget {
			// No room to hold this edge, but a point already held (a
			// climb's long trial that passed) needs only its soak: on
			// catalog, serial-c1-planner's hold failed at 240Mi and
			// passed at 248Mi, and serial-c1's unheld 240Mi, chosen
			// first, left one trial: tune answered none.
			if h := s.bestHeld(); h >= 0 && s.res.Used()+1 <= s.cfg.Budget {
				s.note("the edge at %s (%s) was not held for the soak's length %s: the budget has no room for that trial and the soak, so the point held at %s (%s) is proven instead",
					size.Format(t.Point.MemoryBytes), t.Point.Candidate, s.cfg.Soak,
					size.Format(s.res.Trials[h].Point.MemoryBytes), s.res.Trials[h].Point.Candidate)
				s.res.Chosen = h
				return nil
			}
			s.res.BudgetNeeded = s.needed(2)
			s.note("the edge at %s (%s) was not held for the soak's length %s: the budget has no room for that trial and the soak, so tune answers no point (give --budget %d or more; the stored trials are reused)",
				size.Format(t.Point.MemoryBytes), t.Point.Candidate, s.cfg.Soak, s.res.BudgetNeeded)
			s.res.BudgetSpent = true
			s.res.Chosen = -1
			return nil
		}
		if ran, err := s.proveSideBySide(ctx); err != nil || ran {
			if err != nil {
				return err
			}
			continue
		}
		p := t.Point
		p.Soak, p.Repeat, p.Measure = s.cfg.Soak, 1, false
		o, err := s.run(ctx, p)
		if err != nil {
			return err
		}
		if o.Verdict == trial.OK {
			s.res.Chosen = len(s.res.Trials) - 1
			return nil
		}
		s.note("%s passed %s in the search but not for the soak's length %s (%s): not an answer", p.Candidate, size.Format(p.MemoryBytes), s.cfg.Soak, o.Kind)
		if c := s.cand(p.Candidate); c != nil {
			if err := s.climb(ctx, c, p, o.Kind); err != nil {
				return err
			}
		}
		s.collect()
	}
	return nil
}

// unheld says whether an OK search trial is known not to hold: a trial
// of its candidate as long as the soak failed at its limit or above.
func (s *searcher) unheld(t Trial) bool {
	for _, u := range s.res.Trials {
		if u.Point.Purpose == PurposeSearch && u.Point.Soak > 0 && u.Outcome.Verdict != trial.OK &&
			u.Point.Candidate == t.Point.Candidate && u.Point.MemoryBytes >= t.Point.MemoryBytes {
			return true
		}
	}
	return false
}

// climb records a failed hold of c at p as a KO and, when c has no OK a
// step above it, holds c a step up, up to climbSteps steps while those
// fail: the edge that failed long is most likely a step or two below the
// one that holds (as the soak raises its limit a step at a time), and the
// search's next OK of c may be far above. A hold that failed on kind where
// more limit cannot help (limitCanHelp) is recorded and does not climb.
func (s *searcher) climb(ctx context.Context, c *cand, p Point, kind trial.Kind) error {
	if up, ok := s.heapClimb(c, p, kind); ok {
		return s.climbHeap(ctx, c, p, up)
	}
	if !limitCanHelp(c, p, kind) {
		c.ko = max(c.ko, p.MemoryBytes)
		c.MinOKBytes = s.lowestOKAbove(c, c.ko)
		s.note("%s ran a challenge's heap (%s) and failed on %s: more limit does not change that heap, so its hold does not climb", p.Candidate, challengeHeapOption(p.Options), kind)
		return nil
	}
	for i := 0; i < climbSteps; i++ {
		c.ko = max(c.ko, p.MemoryBytes)
		c.MinOKBytes = s.lowestOKAbove(c, c.ko)
		up := p.MemoryBytes + s.cfg.Step
		if c.MinOKBytes == up || up > s.top || s.res.Used()+2 > s.cfg.Budget {
			return nil
		}
		p.MemoryBytes = up
		o, err := s.run(ctx, p)
		if err != nil {
			return err
		}
		if o.Verdict == trial.OK {
			c.oks = append(c.oks, len(s.res.Trials)-1)
			c.MinOKBytes = up
			return nil
		}
	}
	c.ko = max(c.ko, p.MemoryBytes)
	c.MinOKBytes = s.lowestOKAbove(c, c.ko)
	return nil
}

// climbSteps is how far a failed hold climbs: as far as the soak's own
// retries (judge.SoakTries) go.
const climbSteps = 3

// bestHeld is the best search trial already run as long as the soak that
// passed and is not known not to hold, or -1.
func (s *searcher) bestHeld() int {
	best := -1
	for i, t := range s.res.Trials {
		if t.Point.Purpose != PurposeSearch || t.Point.Soak < s.cfg.Soak || t.Outcome.Verdict != trial.OK || s.unheld(t) {
			continue
		}
		if best < 0 || s.better(t, s.res.Trials[best]) {
			best = i
		}
	}
	return best
}
