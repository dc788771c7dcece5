package tune

import (
	"fmt"
	"math"
	"time"
)

// Cost is tune's estimate of what it will spend, made once the profile
// trial has run: that trial's wall time is the length of every short
// trial (a large app takes ~60 s, a small one ~20 s), and the proof is
// proofTrials trials as long as the soak (hold.go, the soak, and one soak
// a step up, kept in case the first fails).
type Cost struct {
	PerRound int           // search trials in the first round: every candidate's steps
	Rounds   int           // halving rounds until keep candidates remain
	Trials   int           // the whole tune: profile, training, search, hold and soak
	PerTrial time.Duration // a short trial, from the profile trial
	Minutes  float64       // the whole tune
}

// estimate prices a search over n candidates, of which training need a
// training run, bisecting from their floor (lowest floor) to the top.
// Each round gives every live candidate StepsPerRound trials and halves
// them; the last keep candidates then bisect to the grid step.
func estimate(cfg Config, n, training int, floor, top int64, perTrial time.Duration) Cost {
	c := Cost{PerTrial: perTrial, PerRound: n * cfg.StepsPerRound}
	steps := 1
	if span := (top - floor) / cfg.Step; span > 1 {
		steps = int(math.Ceil(math.Log2(float64(span)))) + 1 // the start, then the bisection
	}
	search, alive, done := 0, n, 0
	for alive > keep {
		search += alive * cfg.StepsPerRound
		done += cfg.StepsPerRound
		alive = (alive + 1) / 2
		c.Rounds++
	}
	c.Rounds++
	search += min(alive, n) * max(steps-done, cfg.StepsPerRound)
	proof := 0
	if cfg.Soak > 0 {
		proof = proofTrials
	}
	c.Trials = 1 + training + search + proof
	short := time.Duration(1+training+search) * perTrial
	long := time.Duration(proof) * (cfg.Soak + perTrial/2) // start and warm-up around the soak's measure
	c.Minutes = (short + long).Minutes()
	return c
}

// say tells, before the search, whether the budget covers a proof.
func (c Cost) say(budget int) string {
	s := fmt.Sprintf("estimated cost: %d trials (%d per round over %d rounds, the proof included), about %s per trial, %.0f minutes",
		c.Trials, c.PerRound, c.Rounds, c.PerTrial.Round(time.Second), c.Minutes)
	if c.PerTrial <= 0 {
		// --profile: no profile trial ran to time.
		s = fmt.Sprintf("estimated cost: %d trials (%d per round over %d rounds, the proof included); minutes unknown (no profile trial ran to time one)",
			c.Trials, c.PerRound, c.Rounds)
	}
	if budget < c.Trials {
		return s + fmt.Sprintf("; the budget of %d may not cover a proof: give --budget %d", budget, c.Trials)
	}
	return s + fmt.Sprintf("; the budget of %d covers it", budget)
}

// estimateCost is the estimate for the candidates the search starts with.
func (s *searcher) estimateCost() Cost {
	floor, n, training := s.top, 0, 0
	for _, c := range s.alive() {
		n++
		floor = min(floor, c.FloorBytes)
		if c.Training != nil {
			training++
		}
	}
	return estimate(s.cfg, n, training, floor, s.top, s.ref.Wall)
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
