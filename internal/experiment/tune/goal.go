package tune

import (
	"fmt"
	"math"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// Weights say how much a goal cares about each axis of a point. The
// cost of a point is the weighted sum of the logarithms of its figures
// relative to the profile trial's (the JDK's defaults at the generous
// limit). Logarithms price relative changes, so the weights need no units
// and hold for small and large apps alike.
type Weights struct {
	Memory, P99, Start, Throttling float64
}

// GoalWeights are the weights of each --goal. Every goal still needs
// the SLO to hold: a KO is never chosen, whatever its figures.
//
//   - footprint: the limit alone decides (better); these weights only
//     break ties between points at the same limit, p99 first. The user
//     stated the latency they accept in the SLO, so a point that holds it
//     at a smaller limit is the answer, however close to the SLO its p99
//     is (catalog: 256Mi at p99 426 ms of 500 ms, not 296Mi at 23 ms).
//   - balanced: memory still leads, but a p99 twice as high costs as much
//     as a limit 41% larger, and a start twice as slow as one 23% larger.
//   - throughput: latency and throttling lead; memory is cheap (a limit
//     twice as large costs as much as a p99 only 23% higher).
var GoalWeights = map[string]Weights{
	plan.Footprint:  {Memory: 1.0, P99: 0.1, Start: 0.05, Throttling: 0.05},
	plan.Balanced:   {Memory: 0.5, P99: 0.25, Start: 0.15, Throttling: 0.1},
	plan.Throughput: {Memory: 0.15, P99: 0.5, Start: 0.1, Throttling: 0.25},
}

// better says whether a point (its limit and its cost for the goal) is
// a better answer than b. footprint: the smaller limit, then the lower
// cost. balanced and throughput: the lower cost, then the smaller limit,
// so they trade memory for latency. Equal points are not better: the
// caller keeps the earlier one.
func better(goal string, aMem int64, aCost float64, bMem int64, bCost float64) bool {
	if goal == plan.Footprint && aMem != bMem {
		return aMem < bMem
	}
	if aCost != bCost {
		return aCost < bCost
	}
	return aMem < bMem
}

// cost prices a point against the reference trial; lower is better.
func cost(w Weights, ref, o Outcome, memory, refMemory int64) float64 {
	ratio := func(a, b float64) float64 {
		const tiny = 1e-9
		return math.Log(math.Max(a, tiny) / math.Max(b, tiny))
	}
	return w.Memory*ratio(float64(memory), float64(refMemory)) +
		w.P99*ratio(float64(max(o.P99, time.Microsecond)), float64(max(ref.P99, time.Microsecond))) +
		w.Start*ratio(math.Max(o.StartSeconds, 0.01), math.Max(ref.StartSeconds, 0.01)) +
		w.Throttling*ratio(1+o.Throttling, 1+ref.Throttling)
}

func weightsOf(goal string) (Weights, error) {
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return Weights{}, err
	}
	w, ok := GoalWeights[g]
	if !ok {
		return Weights{}, fmt.Errorf("goal %q has no weights", g)
	}
	return w, nil
}
