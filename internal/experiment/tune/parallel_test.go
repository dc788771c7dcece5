package tune

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// batchApp runs a round's points side by side, as a Session's Batch does,
// and counts the rounds.
type batchApp struct {
	*simApp
	rounds, batched int
}

func (b *batchApp) RunAll(ctx context.Context, ps []Point) ([]Outcome, error) {
	b.rounds++
	b.batched += len(ps)
	var outs []Outcome
	for _, p := range ps {
		run := b.Run
		if p.Purpose == PurposeSoak {
			run = b.Soak
		}
		o, err := run(ctx, p)
		if err != nil {
			return outs, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// N = 2..8 workers give the answer the search gives one trial at a time,
// on the simulated apps, and take fewer rounds than it takes trials: a
// round is one trial's wall time, whatever runs beside it.
func TestTuneParallelGivesTheSequentialAnswer(t *testing.T) {
	seqTrials, rounds := 0, map[int]int{}
	for seed := uint64(1); seed <= simApps; seed += 7 {
		seqApp := randomApp(seed)
		seq, err := Run(context.Background(), simConfig(seqApp, plan.Footprint, 60), seqApp)
		if err != nil {
			t.Fatal(err)
		}
		seqTrials += len(seqApp.runs)
		for n := 2; n <= 8; n++ {
			a := &batchApp{simApp: randomApp(seed)}
			cfg := simConfig(a.simApp, plan.Footprint, 60)
			cfg.Parallel = n
			r, err := Run(context.Background(), cfg, a)
			if err != nil {
				t.Fatal(err)
			}
			if r.MemoryBytes != seq.MemoryBytes || r.Verdict != seq.Verdict {
				t.Fatalf("app %d, N=%d: %s at %d MiB; one at a time %s at %d MiB\n%s", seed, n, r.Verdict, r.MemoryBytes/tmib, seq.Verdict, seq.MemoryBytes/tmib, searchLog(r))
			}
			// Every trial outside a batch is a round of its own.
			rounds[n] += a.rounds + len(a.simApp.runs) - a.batched
		}
	}
	for n := 2; n <= 8; n++ {
		ratio := float64(rounds[n]) / float64(seqTrials)
		t.Logf("N=%d: %d rounds against %d trials one at a time (%.2f)", n, rounds[n], seqTrials, ratio)
		if ratio >= 1 {
			t.Errorf("N=%d: %d rounds, not fewer than the %d trials one at a time", n, rounds[n], seqTrials)
		}
	}
}
