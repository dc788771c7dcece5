package tune

import (
	"context"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// randomApp is simulated app number seed: a base edge between 64 and 400
// MiB, and for every candidate name its own offset from it (-4 to +8 grid
// steps, off the grid) and its own planner floor (from 4 steps below its
// edge to 2 above: a floor above the edge is the planner's margins being
// too careful, the case a floor taken as a wall never finds). Each name's
// figures come from a hash of (seed, name), so an app is the same whatever
// candidates a search generates: the names a newer search adds get figures
// of their own and the others keep theirs.
func randomApp(seed uint64) *simApp {
	r := rand.New(rand.NewPCG(seed, 0x6a766d666974))
	base := int64(64+r.IntN(337)) * tmib
	return &simApp{byName: func(name string) simCand {
		h := fnv.New64a()
		h.Write([]byte(name))
		rn := rand.New(rand.NewPCG(seed, h.Sum64()))
		edge := base + int64(rn.IntN(13)-4)*8*tmib + int64(rn.IntN(8))*tmib
		return simCand{
			min:        edge,
			p99:        time.Duration(3+rn.IntN(15)) * time.Millisecond,
			start:      2 + rn.Float64()*4,
			floorBelow: int64(rn.IntN(7)-2) * 8 * tmib,
		}
	}}
}

// noisyApp is randomApp with noise at every candidate's edge: a trial one
// grid step either side of its edge passes or fails by a coin whose throws
// come from the seed, as on a loaded machine.
type noisyApp struct {
	*simApp
	r *rand.Rand
}

func newNoisyApp(seed uint64) *noisyApp {
	return &noisyApp{simApp: randomApp(seed), r: rand.New(rand.NewPCG(seed, 7))}
}

func (a *noisyApp) Run(ctx context.Context, p Point) (Outcome, error) {
	o, err := a.simApp.Run(ctx, p)
	if err != nil || p.Purpose != PurposeSearch {
		return o, err
	}
	edge := a.cand(p.Candidate).min
	if d := p.MemoryBytes - edge; d > -8*tmib && d < 8*tmib && a.r.IntN(2) == 0 {
		if o.Verdict == trial.OK {
			o = Outcome{Verdict: trial.KO, Kind: trial.KindSLO, StartSeconds: o.StartSeconds}
		} else {
			o = a.simApp.judge(Point{Candidate: p.Candidate, MemoryBytes: edge + 8*tmib, Measure: p.Measure}, 0)
		}
	}
	return o, nil
}
