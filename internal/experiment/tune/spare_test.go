package tune

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// roundApp is batchApp that keeps each round's points.
type roundApp struct {
	*batchApp
	byRound [][]Point
}

func (r *roundApp) RunAll(ctx context.Context, ps []Point) ([]Outcome, error) {
	r.byRound = append(r.byRound, ps)
	return r.batchApp.RunAll(ctx, ps)
}

// At 8 side by side, the slots a winner's edge search leaves free try the
// candidates still in line at its pass less a step: none of those is run
// again when its turn comes (spare.go, step's ranOwn), and a round of
// training runs alone is rarer than one at a time would have it.
func TestSpareSlotsRunNothingTwice(t *testing.T) {
	ahead, alone := 0, 0
	for seed := uint64(1); seed <= simApps; seed += 7 {
		a := &roundApp{batchApp: &batchApp{simApp: randomApp(seed)}}
		cfg := simConfig(a.simApp, plan.Footprint, 60)
		cfg.Parallel = 8
		if _, err := Run(context.Background(), cfg, a); err != nil {
			t.Fatal(err)
		}
		runCounts(t, a.simApp.runs)
		for _, ps := range a.byRound {
			trainings, searches := 0, 0
			for _, p := range ps {
				switch p.Purpose {
				case PurposeTraining:
					trainings++
				case PurposeSearch:
					searches++
				}
			}
			if trainings > 0 && searches > 0 {
				ahead++
			}
			if trainings > 0 && searches == 0 {
				alone++
			}
		}
	}
	t.Logf("rounds with a training run beside search trials: %d; of training runs alone: %d", ahead, alone)
	if ahead == 0 {
		t.Error("no training run rode in a round of search trials: the spare slots took none")
	}
}
