package tune

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Config is everything a tune search depends on. The same config and
// the same outcomes give the same sequence of points.
type Config struct {
	CPUs   float64
	Goal   string // footprint, balanced (default) or throughput
	Budget int    // trials in all: profile, training, search and soak
	Soak   time.Duration
	Step   int64 // the limit grid: the answer's precision
	Min    int64 // the lowest limit tried
	// Generous is the profile trial's limit and the top of the search.
	Generous int64
	// JDK is the feature version of the java tune runs (AOT cache on 25+).
	JDK int
	// ArchiveDir is where training runs write CDS archives and AOT caches.
	ArchiveDir string
	// Parallel is how many trials run side by side (--parallel): the
	// alternatives of a round, the points that cut a bracket. 0 or 1: one
	// at a time.
	Parallel int
	// Planner gives the launcher's plan at a point; nil = plan.Compute.
	Planner Planner
	// Profile, when set (tune --profile), stands in for the profile
	// trial: no trial measures the app first.
	Profile *plan.Profile
	// Remeasure runs each candidate's trials with NMT until one passes,
	// and plans the candidate from the profile that trial measured under
	// its own options (docs/tune.md, "Closing the loop").
	Remeasure bool
	// ScaleBudget lets tune raise Budget to what its own estimate needs
	// (estimate.go): the user gave no --budget.
	ScaleBudget bool
	// Pools are the app's framework thread-pool knobs (detect), which one
	// candidate caps (knobs.go); nil when the framework has none.
	Pools []detect.Knob
	// Reruns is how many fresh reruns of a proven answer run after it
	// (tune --rerun), as the soak ran; they are not in the budget.
	Reruns int
}

// Default holds the defaults of `jvmfit tune`.
var Default = Config{Goal: plan.Balanced, Budget: 24, Soak: time.Minute, Step: 8 * size.MiB,
	Min: 32 * size.MiB, Generous: size.GiB, Remeasure: true}

// Planner is the launcher's plan for a point: the options it adds to
// the candidate's at that limit, or a *plan.RefusedError.
type Planner func(p Point) (*plan.Plan, error)

// withDefaults fills zero fields from Default.
func (c Config) withDefaults() Config {
	d := Default
	if c.Goal == "" {
		c.Goal = d.Goal
	}
	if c.Step == 0 {
		c.Step = d.Step
	}
	if c.Min == 0 {
		c.Min = d.Min
	}
	if c.Generous == 0 {
		c.Generous = d.Generous
	}
	if c.Planner == nil {
		c.Planner = LauncherPlanner(c.JDK, c.Goal)
	}
	return c
}

// Validate checks the config before any trial runs; errors are the
// user's to fix.
func (c Config) Validate() error {
	if _, err := plan.ParseGoal(c.Goal); err != nil {
		return fmt.Errorf("--goal: %w", err)
	}
	need := c.leastBudget()
	switch {
	case c.CPUs <= 0 || math.IsInf(c.CPUs, 0) || math.IsNaN(c.CPUs):
		return errors.New("--cpus: give the CPU limit to tune for, e.g. 1 or 0.5")
	case c.Budget < need:
		return fmt.Errorf("--budget %d cannot cover even the edge-first search: give --budget %d or more (the profile unless --profile, %d trials at the launcher's edge, and unless --soak 0 the proof: the edge held, the soak and one soak a step up)", c.Budget, need, edgeTrials)
	case c.Soak < 0:
		return errors.New("--soak cannot be negative (0 skips the proof)")
	case c.Step <= 0:
		return errors.New("the limit grid step must be positive (e.g. 8Mi)")
	case c.Min <= 0 || c.Generous < c.Min+c.Step:
		return fmt.Errorf("the search range %s..%s holds no limit to bisect", size.Format(c.Min), size.Format(c.Generous))
	case c.Reruns < 0:
		return errors.New("--rerun cannot be negative (0 runs none)")
	case c.Reruns > 0 && c.Soak <= 0:
		return errors.New("--rerun reruns the soak: give --soak above 0")
	case c.Parallel < 0:
		return errors.New("--parallel cannot be negative (1 runs one trial at a time)")
	}
	return nil
}

// edgeTrials is the least the launcher's edge takes when the planner's
// prediction is right: the predicted floor, one step below it, and one
// step above it for the side that failed.
const edgeTrials = 3

// leastBudget is the smallest budget that covers the edge-first search
// with a good prediction, and the proof.
func (c Config) leastBudget() int {
	need := 1 + edgeTrials // the profile and the launcher's edge
	if c.Profile != nil {
		need-- // given: no profile trial
	}
	if c.Soak > 0 {
		need += proofTrials // the hold, the soak and one soak a step up
	}
	return need
}

// LauncherPlanner plans for a JDK known only by its feature version (tests
// and simulations; tune.Open plans for the inspected JDK): the candidate's
// options are the user's and the point's profile sizes the rest.
func LauncherPlanner(jdkVersion int, goal string) Planner {
	return LauncherPlannerFor(jdk.JDK{Version: jdkVersion}, goal)
}

// LauncherPlannerFor plans for the inspected JDK with the point's limits
// (cgroup.Limits.Override, as the launcher's flags and a trial's jvmfit
// mode make them): its update decides options such as
// TrimNativeHeapInterval (17.0.9+), so the search trials get what the
// soak's exec will give.
func LauncherPlannerFor(j jdk.JDK, goal string) Planner {
	return func(p Point) (*plan.Plan, error) {
		lim := cgroup.Limits{}.Override(p.MemoryBytes, p.CPUs, nil)
		in := plan.Input{Limits: lim, JDK: j, Goal: goal, UserOptions: p.Options, Profile: p.Profile}
		if p.Fit {
			pl, _, err := plan.Fit(in, nil)
			return pl, err
		}
		return plan.Compute(in)
	}
}
