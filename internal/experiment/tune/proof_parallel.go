package tune

import (
	"context"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// With trials side by side (Parallel > 1 and trials that batch), the
// proof does not wait for each of its steps. The chosen point's hold (the
// search trial again, as long as the soak) runs in one round with its
// soak and the soaks a grid step or more up, which a failed soak would
// run next: the trials the proof keeps for itself (proofTrials), so the
// budget left to the search is the same. When the hold passes, the
// soaks are read in order as one after the other would have run them, up
// to the first that passed: the same answer in one soak's wall time
// instead of three. When it fails, the soaks are spent on a point that is
// no longer chosen, and the proof goes on one step at a time (hold.go).

// proveSideBySide runs that round for the chosen point, when it can, and
// says whether it did; hold and soak then see its trials as their own.
func (s *searcher) proveSideBySide(ctx context.Context) (bool, error) {
	b, ok := s.trials.(Batcher)
	if !ok || s.workers() < 2 || s.cfg.Soak <= 0 || s.res.Chosen < 0 {
		return false, nil
	}
	hp := s.res.Trials[s.res.Chosen].Point
	if hp.Soak >= s.cfg.Soak {
		return false, nil // held already: the soak runs as always
	}
	hp.Soak, hp.Repeat, hp.Measure = s.cfg.Soak, 1, false
	sp := s.soakPoint(hp)
	soaks := min(s.workers()-1, proofTrials-1, s.cfg.Budget-s.res.Used()-1)
	ps := []Point{hp}
	for i := 0; i < soaks && sp.MemoryBytes+int64(i)*s.cfg.Step <= s.top; i++ {
		q := sp
		q.MemoryBytes += int64(i) * s.cfg.Step
		ps = append(ps, q)
	}
	if len(ps) < 2 {
		return false, nil
	}
	first := len(s.res.Trials)
	outs, err := s.runBatch(ctx, b, ps)
	if err != nil {
		return true, err
	}
	for i := range outs[1:] {
		t := &s.res.Trials[first+1+i]
		if pl, err := s.cfg.Planner(t.Point); err == nil {
			t.PlanOptions = pl.Options
		}
	}
	if outs[0].Verdict != trial.OK {
		s.note("%s passed %s in the search but not for the soak's length %s (%s): not an answer; the %d soak(s) beside it are spent",
			hp.Candidate, size.Format(hp.MemoryBytes), s.cfg.Soak, outs[0].Kind, len(ps)-1)
		if c := s.cand(hp.Candidate); c != nil {
			if err := s.climb(ctx, c, hp, outs[0].Kind); err != nil {
				return true, err
			}
		}
		s.collect() // hold() goes on from the next best point
		return true, nil
	}
	s.res.Chosen = first
	for i, o := range outs[1:] {
		s.res.Soaks = append(s.res.Soaks, s.res.Trials[first+1+i])
		if o.Verdict == trial.OK {
			break
		}
		s.note("the soak at %s failed (%s): the search's OK there did not hold for %s", size.Format(ps[1+i].MemoryBytes), o.Kind, s.cfg.Soak)
	}
	return true, nil
}

// runBatch runs points side by side and records them, as runAll does.
func (s *searcher) runBatch(ctx context.Context, b Batcher, ps []Point) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	outs, err := b.RunAll(ctx, ps)
	for i, o := range outs {
		if o.Verdict != trial.OK {
			outs[i].Verdict = trial.KO
		}
		s.res.Trials = append(s.res.Trials, Trial{Point: ps[i], Outcome: outs[i]})
	}
	if err == nil && len(outs) < len(ps) {
		err = ctx.Err()
	}
	return outs, err
}
