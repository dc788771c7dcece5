package tune

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const tmib = size.MiB

// simCand is a synthetic candidate: it passes from min up, with a p99
// that grows as the limit nears min, and the launcher accepts it from
// min-floorBelow. With edge set, its p99 is edgeP99 below min+edge: it
// holds the SLO there, but only just (catalog's serial-c1-planner at
// 256Mi: p99 426 ms against a 500 ms SLO).
type simCand struct {
	min        int64
	p99        time.Duration
	start      float64
	floorBelow int64
	edge       int64
	edgeP99    time.Duration
}

// simApp is a trial function with known answers, and no JVM.
type simApp struct {
	cands map[string]simCand
	def   simCand
	// byName, when set, gives every candidate's figures (randomApp).
	byName    func(name string) simCand
	soakExtra int64 // a soak needs this much more than a search trial
	// longExtra is what any trial as long as the soak (a held search
	// point or the soak) needs more than a short one: an edge that passes
	// short trials and fails long ones.
	longExtra int64
	runs      []Point
	stopAfter int // the run after this many fails as interrupted (0 = never)
	// ownBelow, when set, is how far below a candidate's true minimum the
	// launcher accepts it with the profile measured under its own options
	// (a measured search trial's, App = the candidate's name).
	ownBelow int64
}

func (a *simApp) cand(name string) simCand {
	if a.byName != nil {
		return a.byName(name)
	}
	if c, ok := a.cands[name]; ok {
		return c
	}
	return a.def
}

func (a *simApp) Run(ctx context.Context, p Point) (Outcome, error) {
	if a.stopAfter > 0 && len(a.runs) >= a.stopAfter {
		return Outcome{}, context.Canceled
	}
	a.runs = append(a.runs, p)
	switch p.Purpose {
	case PurposeProfile:
		return Outcome{Verdict: trial.OK, P99: 5 * time.Millisecond, StartSeconds: 3, PeakBytes: 300 * tmib,
			Profile: &plan.Profile{Version: 1, LiveHeapBytes: 20 * tmib, MetaspaceUsedBytes: 30 * tmib,
				ClassSpaceUsedBytes: 5 * tmib, CodeCacheUsedBytes: 10 * tmib, PeakThreads: 30}}, nil
	case PurposeTraining:
		return Outcome{Verdict: trial.OK, StartSeconds: 3}, nil
	}
	return a.judge(p, a.long(p)), nil
}

func (a *simApp) long(p Point) int64 {
	if p.Soak > 0 {
		return a.longExtra
	}
	return 0
}

func (a *simApp) Soak(ctx context.Context, p Point) (Outcome, error) {
	if p.Soak <= 0 {
		return Outcome{}, fmt.Errorf("soak without a duration: %s", p)
	}
	if a.stopAfter > 0 && len(a.runs) >= a.stopAfter {
		return Outcome{}, context.Canceled
	}
	a.runs = append(a.runs, p)
	return a.judge(p, a.soakExtra+a.long(p)), nil
}

func (a *simApp) judge(p Point, extra int64) Outcome {
	c := a.cand(p.Candidate)
	if p.MemoryBytes < c.min+extra {
		return Outcome{Verdict: trial.KO, Kind: trial.KindOOMKilled, StartSeconds: c.start}
	}
	p99 := c.p99 + c.p99*time.Duration(c.min)/time.Duration(2*p.MemoryBytes)
	if p.MemoryBytes < c.min+c.edge {
		p99 = c.edgeP99
	}
	o := Outcome{Verdict: trial.OK, P99: p99, StartSeconds: c.start, PeakBytes: c.min}
	if p.Measure {
		o.Profile = &plan.Profile{Version: 1, App: p.Candidate, LiveHeapBytes: 20 * tmib}
	}
	return o
}

// planner refuses below each candidate's floor and names it.
func (a *simApp) planner(p Point) (*plan.Plan, error) {
	floor := a.cand(p.Candidate).min - a.cand(p.Candidate).floorBelow
	if p.Profile != nil && p.Profile.App == p.Candidate && p.Candidate != "" {
		floor = a.cand(p.Candidate).min - a.ownBelow
	}
	if p.MemoryBytes < floor && !p.Fit { // exec's plan never refuses
		return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: floor, Why: "simulated"}
	}
	opts := []string{"-Xmx" + size.JVM(p.MemoryBytes/2)}
	if p.Profile == nil {
		opts = append(opts, "-XX:-UseCompressedOops") // a plan without a profile is another JVM
	}
	return &plan.Plan{Options: opts}, nil
}

// footprintApp: the best candidate by footprint is serial-c1-noshare
// (93 MiB, slower to start); the others need 101 to 150 MiB.
func footprintApp() *simApp {
	ms := time.Millisecond
	return &simApp{
		cands: map[string]simCand{
			"serial-c1":          {min: 101 * tmib, p99: 9 * ms, start: 3.0, floorBelow: 30 * tmib},
			"serial-c1-noshare":  {min: 93 * tmib, p99: 9 * ms, start: 4.5, floorBelow: 10 * tmib},
			"serial-c1-appcds":   {min: 110 * tmib, p99: 9 * ms, start: 2.0, floorBelow: 20 * tmib},
			"serial-tiered":      {min: 125 * tmib, p99: 5 * ms, start: 3.0, floorBelow: 20 * tmib},
			"parallel-c1":        {min: 118 * tmib, p99: 10 * ms, start: 3.1, floorBelow: 20 * tmib},
			"parallel-tiered":    {min: 150 * tmib, p99: 6 * ms, start: 3.2, floorBelow: 20 * tmib},
			"serial-c1-heap1.5x": {min: 120 * tmib, p99: 9 * ms, start: 3.0, floorBelow: 20 * tmib},
		},
		def: simCand{min: 140 * tmib, p99: 9 * ms, start: 3.0, floorBelow: 20 * tmib},
	}
}

func simConfig(a *simApp, goal string, budget int) Config {
	return Config{CPUs: 1, Goal: goal, Budget: budget, Soak: time.Minute, JDK: 17, ArchiveDir: "/tmp/tune-archives", Planner: a.planner}
}

func pointKey(p Point) string {
	b, _ := json.Marshal(p) // Profile is not part of the key: it is the profile trial's answer
	return string(b)
}

// runCounts fails the test when a point was run twice.
func runCounts(t *testing.T, runs []Point) {
	t.Helper()
	seen := map[string]int{}
	for i, p := range runs {
		k := pointKey(p)
		if j, ok := seen[k]; ok {
			t.Errorf("point %s run twice (runs %d and %d)", p, j, i)
		}
		seen[k] = i
	}
}
