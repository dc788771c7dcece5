package tune

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// The estimate by hand: 8 candidates, 2 steps a round, halved 8 → 4 → 2
// (two rounds, 16 + 8 trials), then the last two bisect a 1Gi-64Mi span
// on the 8 MiB grid (122 steps: 7 + 1 with the start) for the 4 steps the
// rounds did not give them, 2 × 4. Plus the profile, 2 training runs and
// the proof (the hold, the soak and one soak a step up): 1 + 2 + 32 + 3 =
// 38 trials. Short trials are the profile trial's 60 s, long ones the
// soak's minute and half a short trial: 35 × 1 + 3 × 1.5 = 39.5 minutes.
func TestEstimateCountsRoundsAndTheProof(t *testing.T) {
	cfg := Default
	cfg.Soak = time.Minute
	c := estimate(cfg, 8, 2, 64*tmib, 1024*tmib, time.Minute)
	if c.PerRound != 16 || c.Rounds != 3 || c.Trials != 38 || c.Minutes != 39.5 {
		t.Fatalf("estimate %+v; want 16 per round, 3 rounds, 38 trials, 39.5 minutes", c)
	}
	if s := c.say(24); !strings.Contains(s, "--budget 38") {
		t.Errorf("a budget of 24 below 38 trials: %q does not name the budget needed", s)
	}
	if s := c.say(40); !strings.Contains(s, "covers") {
		t.Errorf("a budget of 40: %q", s)
	}
	c.PerTrial = 0
	if s := c.say(40); !strings.Contains(s, "minutes unknown") {
		t.Errorf("no profile trial timed: %q", s)
	}
	// Without a soak there is no proof to price.
	cfg.Soak = 0
	if d := estimate(cfg, 8, 2, 64*tmib, 1024*tmib, time.Minute); d.Trials != 35 {
		t.Errorf("no soak: %d trials, want 35", d.Trials)
	}
	// A narrower span needs fewer bisection steps: 1 candidate, 4 grid
	// steps between 96 and 128 MiB (halved twice, plus the start: 3).
	if d := estimate(Config{StepsPerRound: 2, Step: 8 * tmib, Soak: time.Minute}, 1, 0, 96*tmib, 128*tmib, 20*time.Second); d.Trials != 1+3+3 {
		t.Errorf("one candidate over 4 grid steps: %d trials, want 7", d.Trials)
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
