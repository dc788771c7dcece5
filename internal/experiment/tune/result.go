package tune

import (
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The verdicts of a tune as a whole.
const (
	Proven    = "proven"     // the soak at the chosen point passed
	NotProven = "not proven" // a point passed the search and no soak ran (--soak 0)
	// None: no candidate passed at any limit tried, or no limit was held
	// for the soak's length within the budget (BudgetNeeded says how many).
	None = "none"
)

// Trial is one trial tune asked for and what came back.
type Trial struct {
	Point   Point
	Outcome Outcome
	// PlanOptions are the launcher's options at the point (search trials
	// and soaks): the JVM ran with PlanOptions followed by Point.Options.
	PlanOptions []string
	// Shared marks a search trial that did not run: its JVM would have run
	// with exactly the options of an earlier one at the same limit, whose
	// outcome it carries. It costs nothing and is not in Used.
	Shared bool `json:",omitempty"`
}

// JVMOptions are all the options the trial's JVM got.
func (t Trial) JVMOptions() []string { return join(t.PlanOptions, t.Point.Options) }

// CandidateResult is what the search learnt about one candidate.
type CandidateResult struct {
	Candidate
	FloorBytes int64 `json:"floor_bytes"` // the lowest limit the planner accepts its options at
	MinOKBytes int64 `json:"min_ok_bytes,omitempty"`
	MaxKOBytes int64 `json:"max_ko_bytes,omitempty"`
	Trials     int   `json:"trials"` // its training and search trials
	Converged  bool  `json:"converged"`
	// Dropped says why the search stopped spending trials on it.
	Dropped string `json:"dropped,omitempty"`
}

// Result is a finished (or interrupted) tune.
type Result struct {
	Goal    string
	CPUs    float64
	Budget  int
	Profile *plan.Profile
	// Trials holds every trial in the order tune asked for them: the
	// profile, training runs, search trials and soaks.
	Trials     []Trial
	Candidates []CandidateResult
	// Chosen indexes Trials: the search trial whose point was chosen; -1
	// when none passed.
	Chosen int
	// MemoryBytes and Options are the answer: the limit (raised by a step
	// for each failed soak) and the candidate's options. PlanOptions are
	// what the launcher adds at that limit with the profile; the
	// JAVA_TOOL_OPTIONS form is PlanOptions followed by Options.
	MemoryBytes int64
	Candidate   string
	Options     []string
	PlanOptions []string
	Soaks       []Trial
	Verdict     string
	// Reruns are the fresh reruns of a proven answer (tune --rerun), each
	// run as the soak was; outside the budget, and not in Used.
	Reruns []Trial
	// Front indexes Trials: the OK search trials no other dominates.
	Front []int
	// BudgetSpent is set when the search stopped for the budget rather
	// than because every candidate converged or was dropped.
	BudgetSpent bool
	// BudgetNeeded, when set, is the budget that would have let the proof
	// go on: the edge held, or one more soak a step up (the verdict is then
	// none, and a rerun with it reuses every stored trial).
	BudgetNeeded int
	// Cost is tune's estimate of its own cost, made before the search
	// from the profile trial (estimate.go).
	Cost Cost
	// NonHeap is the launcher's non-heap at the answer against what the
	// answer's profile measured (issue 24: planned against measured at
	// the answer); zero without a measured native in the profile.
	NonHeap NonHeap
	Notes   []string
}

// NonHeap is planned against measured non-heap at the answer: the plan's
// regions but the heap and headroom, against plan.MeasuredNonHeap of the
// answer's profile; Why is the heap's reason, which names the margin of
// each region over its measured peak.
type NonHeap struct {
	PlannedBytes  int64  `json:"planned_bytes"`
	MeasuredBytes int64  `json:"measured_bytes"`
	Why           string `json:"why"`
}

// Used is the number of trials tune ran: those it shared are free.
func (r *Result) Used() int {
	n := 0
	for _, t := range r.Trials {
		if !t.Shared {
			n++
		}
	}
	return n
}

// front computes the Pareto front of the search trials.
func (r *Result) front() {
	var pts []judge.ParetoPoint
	var idx []int
	for i, t := range r.Trials {
		if t.Point.Purpose != PurposeSearch {
			continue
		}
		pts = append(pts, paretoOf(t))
		idx = append(idx, i)
	}
	r.Front = nil
	for _, k := range judge.Front(pts) {
		r.Front = append(r.Front, idx[k])
	}
}

func paretoOf(t Trial) judge.ParetoPoint {
	o := t.Outcome
	return judge.ParetoPoint{MemoryBytes: t.Point.MemoryBytes, P99: o.P99, StartSeconds: o.StartSeconds,
		Throttling: o.Throttling, OK: o.Verdict == trial.OK}
}
