package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// TuneWeights say how much a goal cares about each axis of a point. The
// cost of a point is the weighted sum of the logarithms of its figures
// relative to the profile trial's (the JDK's defaults at the generous
// limit). Logarithms price relative changes, so the weights need no units
// and hold for small and large apps alike: with memory at 1.0 and p99 at
// 0.1, a limit half as large is worth a p99 up to e^6.9 ≈ 1000 times
// higher, i.e. footprint ignores latency as long as the SLO holds.
type TuneWeights struct {
	Memory, P99, Start, Throttling float64
}

// TuneGoalWeights are the weights of each --goal. Every goal still needs
// the SLO to hold: a KO is never chosen, whatever its figures.
//
//   - footprint: memory first. A 10% smaller limit outweighs a p99 twice
//     as high (1.0·ln 0.9 = −0.105 against 0.1·ln 2 = +0.069).
//   - balanced: memory still leads, but a p99 twice as high costs as much
//     as a limit 41% larger, and a start twice as slow as one 23% larger.
//   - throughput: latency and throttling lead; memory is cheap (a limit
//     twice as large costs as much as a p99 only 23% higher).
var TuneGoalWeights = map[string]TuneWeights{
	plan.Footprint:  {Memory: 1.0, P99: 0.1, Start: 0.05, Throttling: 0.05},
	plan.Balanced:   {Memory: 0.5, P99: 0.25, Start: 0.15, Throttling: 0.1},
	plan.Throughput: {Memory: 0.15, P99: 0.5, Start: 0.1, Throttling: 0.25},
}

// tuneCost prices a point against the reference trial; lower is better.
func tuneCost(w TuneWeights, ref, o TuneOutcome, memory, refMemory int64) float64 {
	ratio := func(a, b float64) float64 {
		const tiny = 1e-9
		return math.Log(math.Max(a, tiny) / math.Max(b, tiny))
	}
	return w.Memory*ratio(float64(memory), float64(refMemory)) +
		w.P99*ratio(float64(max(o.P99, time.Microsecond)), float64(max(ref.P99, time.Microsecond))) +
		w.Start*ratio(math.Max(o.StartSeconds, 0.01), math.Max(ref.StartSeconds, 0.01)) +
		w.Throttling*ratio(1+o.Throttling, 1+ref.Throttling)
}

func tuneWeights(goal string) (TuneWeights, error) {
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return TuneWeights{}, err
	}
	w, ok := TuneGoalWeights[g]
	if !ok {
		return TuneWeights{}, fmt.Errorf("goal %q has no weights", g)
	}
	return w, nil
}
