package tune

import (
	"context"
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// What a tune trial is for: the roles the store keeps beside each trial
// (trial.Purpose*), so a report reads them instead of guessing.
const (
	PurposeProfile  = trial.PurposeProfile  // the first trial: measure the app at a generous limit
	PurposeTraining = trial.PurposeTraining // write a CDS archive or AOT cache for a candidate
	PurposeSearch   = trial.PurposeSearch   // one limit of one candidate (a repeat is stored as trial.PurposeRepeat)
	PurposeSoak     = trial.PurposeSoak     // the proof, run exactly as recommended
)

// Point is one trial tune asks for: a memory limit and a candidate's
// options at a CPU count. Options are user options on top of the
// launcher's plan (the planner fills in every region they leave open);
// the profile trial has none and runs the JDK's defaults.
type Point struct {
	Purpose     string
	MemoryBytes int64
	CPUs        float64
	Candidate   string   // the candidate's name; "" for the profile trial
	Options     []string // the candidate's own options, user options to the planner
	// Profile is the measured profile the planner sizes the other regions
	// with (nil for the profile trial itself).
	Profile *plan.Profile `json:"-"`
	// Soak is the measured length of a soak, and of a search trial held
	// as long as the soak (hold.go); 0 for other trials.
	Soak time.Duration
	// Measure runs a search trial as the profile trial is run (NMT, a full
	// GC at the end), so that its outcome carries the profile measured
	// under the candidate's own options: a candidate's trials measure
	// until one passes.
	Measure bool `json:",omitempty"`
	// Fit plans the point as `jvmfit exec` does (plan.Fit), which never
	// refuses: the launcher's own candidates always, the others below the
	// floor the planner predicts for them, where plan.Compute refuses (the
	// floor is a prediction, not a wall: docs/tune.md).
	Fit bool `json:",omitempty"`
	// Repeat tells a deliberate rerun of the same point from the first
	// (a distinct trial key, so the Session runs it rather than reusing).
	Repeat int `json:",omitempty"`
}

func (p Point) String() string {
	s := p.Purpose
	if p.Candidate != "" {
		s += " " + p.Candidate
	}
	s += fmt.Sprintf(" at %s, %g CPU", size.Format(p.MemoryBytes), p.CPUs)
	if p.Soak > 0 {
		s += fmt.Sprintf(" for %s", p.Soak)
	}
	if p.Measure {
		s += ", measured"
	}
	if p.Fit {
		s += ", as exec plans"
	}
	if p.Repeat > 0 {
		s += fmt.Sprintf(", repeat %d", p.Repeat)
	}
	return s
}

// Outcome is what tune reads from a finished trial.
type Outcome struct {
	Verdict      trial.Verdict // trial.OK or trial.KO
	Kind         trial.Kind    // the KO kind (oom-killed, slo, java-oom, refused, ...)
	P99          time.Duration
	StartSeconds float64
	// Throttling is CPU throttled seconds per second of the trial.
	Throttling float64
	PeakBytes  int64 // the cgroup's peak memory
	// InFlight is the requests the load kept in flight (achieved rate ×
	// p99, Little's law): the pool candidate's size (knobs.go).
	InFlight float64
	// Profile is the measured profile: the profile trial's, and an OK
	// search trial's run with Measure.
	Profile *plan.Profile
	TrialID int64 // the stored trial, when the session stores them
	// Wall is how long the trial took, start to stop: tune's cost
	// estimate is made from the profile trial's (estimate.go).
	Wall time.Duration
	// Notes are caveats about the outcome (a profile without a full GC).
	Notes []string
}

// Trials is how tune asks for trials: the one seam between the search
// and whatever runs them (a Session with its store, progress and signals;
// a simulation in tests). The same Point always means the same trial,
// so a session that reuses stored identical trials makes tune resumable:
// the search asks for the same points in the same order and gets the same
// answers without running them again.
//
// Run runs a profile, training or search point. Soak runs the point the
// way tune recommends it (through `jvmfit exec --profile` or the
// JAVA_TOOL_OPTIONS form), for point.Soak. A KO is an outcome, not an
// error; an error (including a cancelled ctx) stops the search.
type Trials interface {
	Run(ctx context.Context, p Point) (Outcome, error)
	Soak(ctx context.Context, p Point) (Outcome, error)
}
