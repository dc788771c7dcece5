package tune

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// The estimate by hand: 12 candidates, the launcher's start 4 grid
// steps above its floor. Its edge: the start, the cut down to the floor
// (log2 of 5 limits: 3 trials) and one below it, 2 + 3 = 5; one trial for
// each of the 11 others; 2 for a winner's own edge. Plus the profile, 2
// training runs and the proof (the hold, the soak and one soak a step
// up): 1 + 2 + 5 + 11 + 2 + 3 = 24 trials. One at a time, 21 short rounds
// of the profile trial's 60 s and 3 long ones of the soak's minute and
// half a short trial: 21 + 4.5 = 25.5 minutes.
func TestEstimateCountsTheEdgeAlternativesAndTheProof(t *testing.T) {
	cfg := Default
	cfg.Soak = time.Minute
	c := estimate(cfg, 12, 2, 96*tmib, 128*tmib, time.Minute)
	if c.PerRound != 1 || c.Rounds != 21 || c.Trials != 24 || c.Minutes != 25.5 {
		t.Fatalf("estimate %+v; want 1 side by side, 21 rounds, 24 trials, 25.5 minutes", c)
	}
	if s := c.say(20); !strings.Contains(s, "--budget 24") {
		t.Errorf("a budget of 20 below 24 trials: %q does not name the budget needed", s)
	}
	if s := c.say(24); !strings.Contains(s, "covers") {
		t.Errorf("a budget of 24: %q", s)
	}
	c.PerTrial = 0
	if s := c.say(40); !strings.Contains(s, "minutes unknown") {
		t.Errorf("no profile trial timed: %q", s)
	}
	// Without a soak there is no proof to price.
	cfg.Soak = 0
	if d := estimate(cfg, 12, 2, 96*tmib, 128*tmib, time.Minute); d.Trials != 21 {
		t.Errorf("no soak: %d trials, want 21", d.Trials)
	}
	// Side by side, the trials stay and the rounds shrink: 4 at a time,
	// the training in one round, the edge's 5 limits cut in 1 (2 + 1),
	// the 11 others in 3, the winner's 2 in 1: 1 + 1 + 3 + 3 + 1 = 9.
	cfg.Parallel = 4
	if d := estimate(cfg, 12, 2, 96*tmib, 128*tmib, time.Minute); d.Trials != 21 || d.Rounds != 9 || d.PerRound != 4 {
		t.Errorf("4 side by side: %+v; want 21 trials in 9 rounds", d)
	}
	// The launcher's start at its floor: the prediction, one below, one
	// above (edgeTrials), and one candidate only.
	if d := estimate(Config{Step: 8 * tmib, Soak: time.Minute}, 1, 0, 96*tmib, 96*tmib, 20*time.Second); d.Trials != 1+edgeTrials+proofTrials {
		t.Errorf("one candidate whose start is its floor: %d trials, want %d", d.Trials, 1+edgeTrials+proofTrials)
	}
}

// tune says its estimate before the search; without --budget it scales
// the budget up to what the estimate needs, and with one it keeps it.
func TestTuneSaysItsCostAndScalesAnUnsetBudget(t *testing.T) {
	a := footprintApp()
	cfg := simConfig(a, plan.Footprint, 10)
	cfg.ScaleBudget = true
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cost.Trials <= 10 || r.Budget != r.Cost.Trials {
		t.Errorf("scaled budget %d for an estimate of %d trials", r.Budget, r.Cost.Trials)
	}
	if r.Verdict != Proven {
		t.Errorf("with the scaled budget: %q", r.Verdict)
	}
	said := strings.Join(r.Notes, "\n")
	if !strings.Contains(said, "estimated cost") || !strings.Contains(said, "scales with the app") {
		t.Errorf("notes do not say the estimate and the scaling:\n%s", said)
	}
	a = footprintApp()
	r, err = Run(context.Background(), simConfig(a, plan.Footprint, 10), a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Budget != 10 || r.Used() > 10 || !strings.Contains(strings.Join(r.Notes, "\n"), "--budget ") {
		t.Errorf("a given budget of 10: budget %d, used %d, notes %q", r.Budget, r.Used(), r.Notes)
	}
}
