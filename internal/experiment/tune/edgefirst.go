package tune

import (
	"context"
	"fmt"
	"sort"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// search spends the trials where the answer is (docs/tune.md, "The
// search"). Passing the SLO is monotone in the limit, so:
//
//  1. The launcher's own plan for the goal, with the profile, is the
//     strongest prior: its edge is found first, galloping from the floor
//     the planner predicts, then cut to the grid step. That edge is the
//     incumbent.
//  2. Every other candidate, in the order of its predicted floor, gets one
//     trial at the incumbent's edge less a step (footprint; balanced and
//     at the edge itself, where the goal's cost decides; throughput, where
//     memory is cheap: at the first incumbent's edge). A KO drops it; a
//     pass makes it the incumbent, and its own edge is found. A candidate
//     whose predicted floor is two steps or more above the edge, and as
//     far above the incumbent's own floor predicted from the same profile,
//     cannot win (but for throughput) and gets none; nor does a tiered
//     candidate whose C1 twin the kernel killed there with the same heap
//     (twin.go).
//  3. Up to Parallel trials run side by side: the alternatives of a round,
//     and the points that cut a bracket into Parallel+1 parts.
func (s *searcher) search(ctx context.Context) error {
	order := s.byPrediction()
	tried := map[*cand]bool{}
	s.order, s.tried = order, tried
	for s.room(1) {
		inc := s.choose()
		if inc < 0 {
			// No incumbent yet (the launcher failed up to the generous
			// limit): the next candidate's edge is searched on its own.
			c := firstUntried(order, tried)
			if c == nil {
				return nil
			}
			tried[c] = true
			if err := s.edge(ctx, c, false); err != nil {
				return err
			}
			continue
		}
		if s.firstEdge == 0 {
			s.firstEdge = s.res.Trials[inc].Point.MemoryBytes
		}
		round := s.challengers(order, tried, s.res.Trials[inc], false)
		if round = s.fit(round); len(round) == 0 {
			return nil
		}
		if err := s.step(ctx, round); err != nil {
			return err
		}
		if err := s.settle(ctx, round, s.res.Trials[inc], tried); err != nil {
			return err
		}
	}
	return nil
}

// challengers is the next round of candidates to try at the edge e of
// the incumbent's trial inc, each with the limit it is tried at, and for
// footprint with the heap inc held (challengeHeap). Those that cannot win are
// dropped on the way: their floor, predicted from the first profile, is
// two steps or more above e and above incFloor, the incumbent's floor
// predicted from that profile too. Not e alone: the incumbent's floor has
// come down with the profile measured under its own options (adopt), and
// its edge is often below even that, while every untried candidate's
// floor still holds the first profile's margins (sort, JDK 17: every C1
// candidate and the launcher planned from 128Mi with the JDK defaults'
// profile; the launcher, with its own, from 112Mi, and held 104Mi: all
// the others were dropped untried).
//
// dry picks the round without marking any candidate tried or dropped: the
// spare slots of a round side by side try ahead who would come next.
func (s *searcher) challengers(order []*cand, tried map[*cand]bool, inc Trial, dry bool) []job {
	e, incFloor := inc.Point.MemoryBytes, s.firstFloor(s.cand(inc.Point.Candidate))
	heap := s.challengeHeap(inc)
	at := e - s.cfg.Step
	if s.res.Goal != plan.Footprint {
		at = e
	}
	var round []job
	for _, c := range order {
		switch {
		case tried[c] || c.Dropped != "":
			continue
		case s.res.Goal == plan.Throughput:
			// Memory is cheap for throughput: a candidate that needs more of
			// it than the incumbent may still win on latency, so it is tried
			// at the first incumbent's edge (the launcher's, the largest as a
			// rule), or where its plan predicts it holds if that is higher,
			// and the cost decides.
			round = append(round, job{c: c, mem: min(max(e, s.firstEdge, c.FloorBytes), s.top)})
			if !dry {
				tried[c] = true
			}
			if len(round) == s.workers() {
				return round
			}
			continue
		case c.FloorBytes > e+s.cfg.Step && c.FloorBytes > incFloor+s.cfg.Step:
			if !dry {
				c.Dropped = fmt.Sprintf("cannot win: its planned floor %s is two steps or more above the incumbent's edge %s and its floor %s",
					size.Format(c.FloorBytes), size.Format(e), size.Format(incFloor))
			}
			continue
		case at < s.low():
			if !dry {
				c.Dropped = fmt.Sprintf("the incumbent holds the lowest limit tried, %s", size.Format(e))
			}
			continue
		}
		if why := s.twinKilled(c, at, heap); why != "" {
			if !dry {
				c.Dropped = why
			}
			continue
		}
		round = append(round, job{c: c, mem: at, heap: heap})
		if !dry {
			tried[c] = true
		}
		if len(round) == s.workers() {
			break
		}
	}
	return round
}

// settle reads a round of challengers against the incumbent's trial inc: a winner's edge is searched, the others dropped.
// A challenger whose trial did not run (it was to share a trial of the same
// round) is tried again in the next.
func (s *searcher) settle(ctx context.Context, round []job, inc Trial, tried map[*cand]bool) error {
	var won []*cand
	for _, j := range round {
		c := j.c
		if c.Dropped != "" {
			continue
		}
		t, ok := s.trialOf(c, j.mem)
		switch {
		case !ok:
			tried[c] = false
		case t.Outcome.Verdict != trial.OK:
			c.Dropped = fmt.Sprintf("KO at %s (%s), where %s holds %s", size.Format(j.mem), t.Outcome.Kind, inc.Point.Candidate, size.Format(inc.Point.MemoryBytes))
		case s.res.Goal != plan.Footprint && !s.better(t, inc):
			c.Dropped = fmt.Sprintf("at %s it costs more for the %s goal than %s at %s", size.Format(j.mem), s.res.Goal, inc.Point.Candidate, size.Format(inc.Point.MemoryBytes))
		default:
			won = append(won, c)
		}
	}
	// The first winner (in the order of prediction) has its edge found;
	// the others go back in line, to be tried at the new edge less a step,
	// as one at a time they would have been.
	for i, c := range won {
		if i > 0 {
			tried[c] = false
			continue
		}
		if err := s.edge(ctx, c, true); err != nil {
			return err
		}
	}
	return nil
}

// edge searches c's edge to the grid step, a round of up to Parallel
// trials at a time, while the budget lasts. Side by side, the slots its
// own limits leave free are spare (spare.go); a challenger's, won is true.
func (s *searcher) edge(ctx context.Context, c *cand, won bool) error {
	for c.Dropped == "" && s.room(1) {
		ms := s.next(c, s.workers())
		if len(ms) == 0 {
			return nil
		}
		jobs := make([]job, len(ms))
		for i, m := range ms {
			jobs[i] = job{c: c, mem: m}
		}
		jobs = append(jobs, s.spare(c, won, s.workers()-len(jobs))...)
		if jobs = s.fit(jobs); len(jobs) == 0 {
			return nil
		}
		if err := s.step(ctx, jobs); err != nil {
			return err
		}
	}
	return nil
}

// byPrediction orders the live candidates: the launcher's own plan first,
// then by the floor the planner predicts, lowest first (the generation
// order among equals).
func (s *searcher) byPrediction() []*cand {
	a := s.alive()
	sort.SliceStable(a, func(i, j int) bool {
		if a[i].Name == LauncherName || a[j].Name == LauncherName {
			return a[i].Name == LauncherName && a[j].Name != LauncherName
		}
		return a[i].FloorBytes < a[j].FloorBytes
	})
	return a
}

// firstFloor is c's floor as the launcher plans it with the first
// profile (the one every untried candidate's floor comes from), whatever
// profile c plans with now; c's own when it plans with no profile.
func (s *searcher) firstFloor(c *cand) int64 {
	if c == nil {
		return 0
	}
	if c.prof == nil || c.NoProfile {
		return c.FloorBytes
	}
	p := s.point(c, PurposeSearch, s.low())
	p.Profile = s.res.Profile
	if f, err := s.floorOf(p); err == nil && f > 0 {
		return f
	}
	return c.FloorBytes
}

func firstUntried(order []*cand, tried map[*cand]bool) *cand {
	for _, c := range order {
		if !tried[c] && c.Dropped == "" {
			return c
		}
	}
	return nil
}

// trialOf is c's latest search trial at mem.
func (s *searcher) trialOf(c *cand, mem int64) (Trial, bool) {
	for i := len(s.res.Trials) - 1; i >= 0; i-- {
		t := s.res.Trials[i]
		if t.Point.Purpose == PurposeSearch && t.Point.Candidate == c.Name && t.Point.MemoryBytes == mem && t.Point.Soak == 0 {
			return t, true
		}
	}
	return Trial{}, false
}
