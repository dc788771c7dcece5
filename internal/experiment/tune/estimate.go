package tune

import (
	"fmt"
	"time"
)

// Cost is tune's estimate of what it will spend, made once the profile
// trial has run: that trial's wall time is the length of every short
// trial (a large app takes ~60 s, a small one ~20 s), and the proof is
// proofTrials trials as long as the soak (hold.go, the soak, and one soak
// a step up, kept in case the first fails).
type Cost struct {
	PerRound int           // trials side by side (--parallel)
	Rounds   int           // rounds of trials before the proof
	Trials   int           // the whole tune: profile, training, search, hold and soak
	PerTrial time.Duration // a short trial, from the profile trial
	Minutes  float64       // the whole tune
}

// estimate prices the edge-first search over n candidates (the launcher's
// two among them), of which training need a training run:
//   - the launcher's edge: its start, the cut from the start down to its
//     predicted floor (log2 of the steps between them), and one step below
//     the floor;
//   - one trial for each other candidate at that edge;
//   - two more for one challenger that wins and has its own edge found;
//   - the profile, the training runs and the proof.
//
// With --parallel P, a round holds P trials and a bracket is cut into P+1
// parts, so the rounds, and the minutes, shrink; the trials do not.
func estimate(cfg Config, n, training int, floor, start int64, perTrial time.Duration) Cost {
	p := max(1, cfg.Parallel)
	c := Cost{PerTrial: perTrial, PerRound: p}
	span := max(1, (start-floor)/cfg.Step) + 1
	edge, edgeRounds := 2+ceilLog(span, 2), 2+ceilLog(span, p+1)
	alts, won := max(0, n-1), 0
	if alts > 0 {
		won = 2
	}
	proof := 0
	if cfg.Soak > 0 {
		proof = proofTrials
	}
	c.Trials = 1 + training + edge + alts + won + proof
	c.Rounds = 1 + ceilDiv(training, p) + edgeRounds + ceilDiv(alts, p) + ceilDiv(won, p)
	short := time.Duration(c.Rounds) * perTrial
	long := time.Duration(proof) * (cfg.Soak + perTrial/2) // start and warm-up around the soak's measure
	c.Minutes = (short + long).Minutes()
	return c
}

// ceilLog is the number of rounds that cut g grid steps to one, b parts
// at a time.
func ceilLog(g int64, b int) int {
	n := 0
	for v := int64(1); v < g; v *= int64(b) {
		n++
	}
	return n
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// say tells, before the search, whether the budget covers a proof.
func (c Cost) say(budget int) string {
	s := fmt.Sprintf("estimated cost: %d trials (%d side by side over %d rounds, then the proof), about %s per trial, %.0f minutes",
		c.Trials, c.PerRound, c.Rounds, c.PerTrial.Round(time.Second), c.Minutes)
	if c.PerTrial <= 0 {
		// --profile: no profile trial ran to time.
		s = fmt.Sprintf("estimated cost: %d trials (%d side by side over %d rounds, then the proof); minutes unknown (no profile trial ran to time one)",
			c.Trials, c.PerRound, c.Rounds)
	}
	if budget < c.Trials {
		return s + fmt.Sprintf("; the budget of %d may not cover a proof: give --budget %d", budget, c.Trials)
	}
	return s + fmt.Sprintf("; the budget of %d covers it", budget)
}

// estimateCost is the estimate for the candidates the search starts
// with, from the launcher's predicted floor and start.
func (s *searcher) estimateCost() Cost {
	n, training := 0, 0
	floor, start := s.top, s.top
	for _, c := range s.alive() {
		n++
		if c.Training != nil {
			training++
		}
		if c.Name == LauncherName {
			floor, start = c.FloorBytes, max(c.start, c.FloorBytes)
		}
	}
	return estimate(s.cfg, n, training, floor, start, s.ref.Wall)
}

// maxScaledBudget bounds a budget tune sets itself: three times the
// default, about two hours of a large app's 60 s trials.
const maxScaledBudget = 120

// scaleBudget raises a budget the user did not give to what the estimate
// needs (a large app with many candidates spent 24 trials on one round),
// up to maxScaledBudget. The estimate depends only on the config and the
// candidates, so a resumed tune scales to the same budget.
func (s *searcher) scaleBudget() {
	need := s.res.Cost.Trials
	if !s.cfg.ScaleBudget || need <= s.cfg.Budget {
		return
	}
	b := min(need, maxScaledBudget)
	s.note("the budget scales with the app: %d trials instead of %d (give --budget to fix it)", b, s.cfg.Budget)
	s.cfg.Budget, s.res.Budget = b, b
}
