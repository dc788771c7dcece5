package tune

import (
	"context"
	"fmt"
	"slices"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// choose picks the best OK search trial for the goal (better):
// footprint the smallest limit, the others the lowest cost; on a full tie,
// the earlier trial.
func (s *searcher) choose() int {
	best := -1
	for i, t := range s.res.Trials {
		if t.Point.Purpose != PurposeSearch || t.Outcome.Verdict != trial.OK || s.unheld(t) || s.contradicted(t) {
			continue
		}
		if best < 0 || s.better(t, s.res.Trials[best]) {
			best = i
		}
	}
	return best
}

// contradicted says whether an OK search trial lies below a KO of its
// candidate planned with the same profile (noise at the edge: passing is
// monotone in the limit, so one of the two was luck, and the answer is
// never a limit below a KO tune saw).
func (s *searcher) contradicted(t Trial) bool {
	for _, u := range s.res.Trials {
		if u.Point.Purpose == PurposeSearch && u.Outcome.Verdict != trial.OK && u.Point.Candidate == t.Point.Candidate &&
			u.Point.Profile == t.Point.Profile && u.Point.MemoryBytes >= t.Point.MemoryBytes {
			return true
		}
	}
	return false
}

// better says whether search trial a is a better answer than b for the goal.
func (s *searcher) better(a, b Trial) bool {
	return better(s.res.Goal, a.Point.MemoryBytes, s.cost(a), b.Point.MemoryBytes, s.cost(b))
}

// soak proves the chosen point by running it as recommended for
// cfg.Soak. A KO raises the limit one grid step and soaks again, at most
// judge.SoakTries times and only while the budget allows: the first soak has a
// trial kept for it, the others use what the search left. This matters
// most for footprint, which chooses the smallest limit that passed once:
// a point that held there only by luck at the edge is pushed up by the
// proof, and a note says so.
func (s *searcher) soak(ctx context.Context) error {
	if s.res.Chosen < 0 || s.cfg.Soak <= 0 {
		return nil
	}
	p := s.soakPoint(s.res.Trials[s.res.Chosen].Point)
	// Soaks a round side by side ran already (proof_parallel.go) are
	// taken as the first tries.
	start := len(s.res.Soaks)
	if start > 0 {
		last := s.res.Soaks[start-1]
		if last.Outcome.Verdict == trial.OK {
			return nil
		}
		p.MemoryBytes = last.Point.MemoryBytes + s.cfg.Step
	}
	for i := start; i < judge.SoakTries && p.MemoryBytes <= s.top; i++ {
		if s.res.Used() >= s.cfg.Budget {
			s.res.BudgetSpent = true
			s.res.BudgetNeeded = s.needed(1)
			s.note("the budget ran out after the soak at %s failed: the soak at %s needs one more trial (give --budget %d or more; the stored trials are reused, and a larger budget may first search further)",
				size.Format(p.MemoryBytes-s.cfg.Step), size.Format(p.MemoryBytes), s.res.BudgetNeeded)
			return nil
		}
		o, err := s.run(ctx, p)
		if err != nil {
			return err
		}
		last := &s.res.Trials[len(s.res.Trials)-1]
		if pl, err := s.cfg.Planner(p); err == nil {
			last.PlanOptions = pl.Options
		}
		s.res.Soaks = append(s.res.Soaks, *last)
		if o.Verdict == trial.OK {
			return nil
		}
		s.note("the soak at %s failed (%s): the search's OK there did not hold for %s", size.Format(p.MemoryBytes), o.Kind, s.cfg.Soak)
		p.MemoryBytes += s.cfg.Step
	}
	return nil
}

// soakPoint is the soak of the chosen point p: run as recommended for
// cfg.Soak, with the profile the search planned it with. The profile
// measured under the chosen options, when the candidate has one the
// point was not planned with (the point was the trial that measured it),
// takes its place only where the launcher plans the same options with
// it: the soak proves what the search held, never a plan no search trial
// ran. (filecache, serial-c1-appcds at 104Mi: the search planned a
// 52 MiB heap and held it 30 s; the candidate's own profile, whose AppCDS
// archive counts 43 MiB, planned 14 MiB there, and the soak died of Java
// heap space, twice in two runs.)
func (s *searcher) soakPoint(p Point) Point {
	p.Purpose, p.Soak, p.Measure, p.Repeat = PurposeSoak, s.cfg.Soak, false, 0
	c := s.cand(p.Candidate)
	if c == nil || c.prof == nil || p.Profile == c.prof {
		return p
	}
	q := p
	q.Profile = c.prof
	searched, err := s.cfg.Planner(p)
	if err != nil {
		return p
	}
	own, err := s.cfg.Planner(q)
	if err != nil || !slices.Equal(own.Options, searched.Options) {
		return p
	}
	return q
}

// answer fills the recommendation: the chosen point, raised to the last
// soak's limit, with the launcher's options at that limit.
func (s *searcher) answer() {
	r := s.res
	if r.Chosen < 0 {
		r.Verdict = None
		return
	}
	p := r.Trials[r.Chosen].Point
	r.Verdict = NotProven
	if n := len(r.Soaks); n > 0 {
		last := r.Soaks[n-1]
		if last.Outcome.Verdict != trial.OK {
			// The last soak failed and the budget (or judge.SoakTries)
			// ended the proof. That limit is known to fail as recommended,
			// and no trial as long as the soak passed above it: the next
			// step up would be a guess, so there is no answer, and the
			// notes say what a proof needs.
			r.Verdict = None
			if r.BudgetNeeded == 0 {
				s.note("the soak failed %d times, up to %s: tune answers no limit that no trial as long as the soak passed at", n, size.Format(last.Point.MemoryBytes))
			}
			return
		}
		p.MemoryBytes = last.Point.MemoryBytes
		r.Verdict = Proven
	}
	if n := len(r.Soaks); n > 0 {
		p.Profile = r.Soaks[n-1].Point.Profile
		if searched := r.Trials[r.Chosen].Point.MemoryBytes; p.MemoryBytes > searched {
			r.Notes = append(r.Notes, fmt.Sprintf("the answer is %s, %d grid step(s) above the chosen search point's %s: the soak failed there (the search's OK held only at the edge), and a soak passed there",
				size.Format(p.MemoryBytes), (p.MemoryBytes-searched)/s.cfg.Step, size.Format(searched)))
		}
	}
	if p.Profile != nil && p.Profile != r.Profile {
		r.Profile = p.Profile
		r.Notes = append(r.Notes, fmt.Sprintf("the profile is the one measured under %s's own options (trial %d)", p.Candidate, p.Profile.Trial))
	}
	r.MemoryBytes, r.Candidate, r.Options = p.MemoryBytes, p.Candidate, p.Options
	pl, err := s.cfg.Planner(p)
	if err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("the launcher's plan at %s: %v", size.Format(p.MemoryBytes), err))
		return
	}
	r.PlanOptions = pl.Options
	if m := plan.MeasuredNonHeap(p.Profile); m > 0 {
		r.NonHeap = NonHeap{PlannedBytes: pl.Total() - pl.HeapBytes(), MeasuredBytes: m, Why: pl.Region(plan.RegHeap).Why}
	}
}

// cand is the candidate of that name, or nil.
func (s *searcher) cand(name string) *cand {
	for _, c := range s.cands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// needed is the budget to suggest when the proof stopped n trials short:
// those n on top of what was used, or tune's own estimate if larger (a
// larger budget also lets the search go on before the proof).
func (s *searcher) needed(n int) int {
	return max(s.res.Used()+n, s.res.Cost.Trials)
}
