package tune

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// keep is how many candidates halving keeps to the end: the best two
// are both bisected to the grid step, so the answer and its runner-up are
// both exact and the front shows the trade-off between them.
const keep = 2

// search runs rounds of successive halving: each surviving candidate gets
// StepsPerRound bisection steps, then candidates whose best possible point
// is dominated by a point another candidate has proven are dropped, then
// the worse half for the goal is dropped, until the survivors have
// converged or the budget is spent.
func (s *searcher) search(ctx context.Context) error {
	for round := 1; ; round++ {
		moved := false
		for _, c := range s.alive() {
			// k counts the steps that ran a trial: a limit the launcher
			// refuses costs none, so it takes no step either (catalog:
			// serial-c1-appcds, planned from the defaults' profile with its
			// new archive, was refused at both steps of its first round and
			// halved with no point).
			for k := 0; k < s.cfg.StepsPerRound && c.Dropped == ""; {
				mem, ok := s.next(c)
				if !ok {
					break
				}
				n := 1
				if c.Training != nil && !c.trained {
					n = 2
				}
				if !s.room(n) {
					s.res.BudgetSpent = true
					if n == 1 || !s.room(1) {
						return nil
					}
					// Its training does not fit but a trial of another does.
					c.Dropped = "no budget left for its training run"
					break
				}
				ran, err := s.probe(ctx, c, mem)
				if err != nil {
					return err
				}
				if ran {
					k++
					moved = true
				}
			}
		}
		s.dropDominated()
		if !moved {
			return nil
		}
		s.halve(round)
	}
}

// next is the candidate's next limit: its start first (where the
// launcher's heap holds the measured live set; else its floor, the
// planner's smallest accepted limit), then galloping up while it only failed (1, 2, 4, 8
// grid steps above the highest KO), then bisecting the bracket (highest
// KO, lowest OK] on the grid. ok is false once the bracket is one step
// wide.
func (s *searcher) next(c *cand) (int64, bool) {
	step := s.cfg.Step
	switch {
	case c.MinOKBytes == 0 && c.misses == 0 && c.start > c.ko+step:
		return min(c.start, s.top), true
	case c.MinOKBytes == 0:
		return min(c.ko+step<<min(c.misses, 20), s.top), true
	case c.MinOKBytes-c.ko <= step:
		return 0, false
	}
	lo, hi := c.ko/step, c.MinOKBytes/step
	return (lo + (hi-lo)/2) * step, true
}

// probe runs the candidate's training if it has one still to run, then
// its trial at mem. ran says whether a trial ran (the training counts).
func (s *searcher) probe(ctx context.Context, c *cand, mem int64) (ran bool, err error) {
	if c.Training != nil && !c.trained {
		p := s.point(c, PurposeTraining, s.cfg.Generous)
		p.Options = c.Training
		o, err := s.run(ctx, p)
		if err != nil {
			return true, err
		}
		c.trained, ran = true, true
		c.Trials++
		if o.Verdict != trial.OK {
			c.Dropped = fmt.Sprintf("its training run failed (%s)", o.Kind)
			return true, nil
		}
		// Its archive now exists and the launcher plans with it, so its
		// start (where the heap holds the live set) moves: planned without
		// it, a refusal then sent the candidate to the smallest limit the
		// launcher named, where the heap is 3/4 of the live set, and it
		// died there of Java heap space before it was ready (catalog,
		// serial-c1-appcds, 2026-11-27). Its first trial goes to the new
		// start when that is higher, and so does a refusal's next step.
		if st := s.startOf(s.point(c, PurposeSearch, mem)); st > 0 {
			c.start = st
			if c.MinOKBytes == 0 && c.misses == 0 {
				mem = max(mem, min(st, s.top))
			}
		}
	}
	p := s.point(c, PurposeSearch, mem)
	pl, err := s.cfg.Planner(p)
	if err != nil {
		var ref *plan.RefusedError
		if !errors.As(err, &ref) {
			c.Dropped = "the launcher cannot plan its options: " + err.Error()
			return ran, nil
		}
		// The planner is not monotone in the limit: a refusal above the
		// floor is a KO known without a trial. Where the refusal names a
		// larger limit it accepts, the next step goes there.
		c.ko = max(c.ko, mem)
		if ref.MinBytes > mem && c.MinOKBytes == 0 {
			c.ko = max(c.ko, s.gridUp(ref.MinBytes)-s.cfg.Step)
		} else {
			c.misses++
		}
		if c.ko >= s.top {
			c.Dropped = "the launcher refuses its options up to the generous limit " + size.Format(s.top)
		}
		return ran, nil
	}
	o, err := s.run(ctx, p)
	if err != nil {
		return true, err
	}
	ran = true
	s.res.Trials[len(s.res.Trials)-1].PlanOptions = pl.Options
	c.Trials++
	if o.Verdict == trial.OK {
		c.MinOKBytes = mem
		c.oks = append(c.oks, len(s.res.Trials)-1)
		if p.Measure && o.Profile != nil {
			s.adopt(c, o.Profile, mem)
		}
		return true, nil
	}
	c.ko, c.MaxKOBytes = max(c.ko, mem), max(c.MaxKOBytes, mem)
	c.misses++
	if c.MinOKBytes == 0 && mem >= s.top {
		c.Dropped = fmt.Sprintf("KO up to the generous limit %s (%s)", size.Format(s.top), o.Kind)
	}
	return true, nil
}

// dropDominated drops every candidate whose best possible point is
// dominated by an OK trial of another candidate: more trials could only
// bring it closer to a point it cannot beat.
func (s *searcher) dropDominated() {
	for _, c := range s.alive() {
		if len(c.oks) == 0 {
			continue
		}
		opt := s.optimistic(c)
		for _, d := range s.cands {
			if d == c {
				continue
			}
			if i := s.dominating(d, opt); i >= 0 {
				t := s.res.Trials[i]
				c.Dropped = fmt.Sprintf("dominated by %s at %s (p99 %s, start %.2fs)", d.Name, size.Format(t.Point.MemoryBytes),
					t.Outcome.P99.Round(10*time.Microsecond), t.Outcome.StartSeconds)
				break
			}
		}
	}
}

// dominating is the index of d's first OK trial that dominates p, or -1.
func (s *searcher) dominating(d *cand, p judge.ParetoPoint) int {
	for _, i := range d.oks {
		if judge.Dominates(paretoOf(s.res.Trials[i]), p) {
			return i
		}
	}
	return -1
}

// halve keeps the better half of the surviving candidates (at least
// keep), ranked for the goal (byScore).
func (s *searcher) halve(round int) {
	a := s.alive()
	if len(a) <= keep {
		return
	}
	s.byScore(a)
	keep := max(keep, (len(a)+1)/2)
	for i, c := range a[keep:] {
		c.Dropped = fmt.Sprintf("halved after round %d: ranked %d of %d for the %s goal", round, keep+i+1, len(a), s.res.Goal)
	}
}
