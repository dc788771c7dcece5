package report

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TuneJSON is `jvmfit tune --json`. The keys memory_bytes, cpus, options,
// profile, verdict, soak (with verdict), trials and front (with
// memory_bytes, options, p99_ns, start_seconds, verdict) are a published
// interface: keep them as they are.
type TuneJSON struct {
	MemoryBytes int64           `json:"memory_bytes"`
	CPUs        float64         `json:"cpus"`
	Options     []string        `json:"options"` // every option the JVM gets: the launcher's, then the candidate's
	Profile     *plan.Profile   `json:"profile"`
	Verdict     string          `json:"verdict"` // proven, not proven or none
	Soak        TuneSoakJSON    `json:"soak"`
	Trials      int             `json:"trials"`
	Front       []TunePointJSON `json:"front"`

	Goal        string                 `json:"goal"`
	Budget      int                    `json:"budget"`
	Candidate   string                 `json:"candidate,omitempty"`
	UserOptions []string               `json:"user_options"` // the candidate's own: what `jvmfit exec` is given
	ProfileFile string                 `json:"profile_file,omitempty"`
	Forms       Forms                  `json:"forms"`
	Candidates  []tune.CandidateResult `json:"candidates"`
	BudgetSpent bool                   `json:"budget_spent"`
	// BudgetNeeded is the budget a proof needs when the verdict is none
	// for the lack of one (0 otherwise).
	BudgetNeeded int      `json:"budget_needed,omitempty"`
	Notes        []string `json:"notes,omitempty"`
	// Reruns are tune --rerun's fresh reruns of the proven answer, run
	// as the soak was (omitted without --rerun).
	Reruns *TuneRerunsJSON `json:"reruns,omitempty"`
	// NonHeap is planned against measured non-heap at the answer.
	NonHeap *tune.NonHeap `json:"nonheap,omitempty"`
}

// TuneRerunsJSON is how many fresh reruns passed, and each one.
type TuneRerunsJSON struct {
	Runs   int            `json:"runs"`
	OK     int            `json:"ok"`
	Trials []TuneSoakJSON `json:"trials"`
}

// TuneSoakJSON is the last soak; verdict is "not run" when there was none.
type TuneSoakJSON struct {
	Verdict      trial.Verdict `json:"verdict"`
	Kind         trial.Kind    `json:"kind,omitempty"`
	MemoryBytes  int64         `json:"memory_bytes,omitempty"`
	Duration     time.Duration `json:"duration_ns,omitempty"`
	P99          time.Duration `json:"p99_ns,omitempty"`
	StartSeconds float64       `json:"start_seconds,omitempty"`
	PeakBytes    int64         `json:"peak_bytes,omitempty"`
	Runs         int           `json:"runs"` // soaks run, each a step above the last that failed
	TrialID      int64         `json:"trial_id,omitempty"`
}

// TunePointJSON is one point of the Pareto front.
type TunePointJSON struct {
	MemoryBytes  int64         `json:"memory_bytes"`
	Options      []string      `json:"options"`
	P99          time.Duration `json:"p99_ns"`
	StartSeconds float64       `json:"start_seconds"`
	Verdict      trial.Verdict `json:"verdict"`
	Throttling   float64       `json:"throttling"`
	PeakBytes    int64         `json:"peak_bytes,omitempty"`
	Candidate    string        `json:"candidate"`
	Chosen       bool          `json:"chosen,omitempty"`
	TrialID      int64         `json:"trial_id,omitempty"`
}

// NewTuneJSON builds the JSON form of a result; profileFile is where the
// command wrote the profile.
func NewTuneJSON(r *tune.Result, profileFile string) TuneJSON {
	j := TuneJSON{MemoryBytes: r.MemoryBytes, CPUs: r.CPUs, Options: r.JVMOptions(), Profile: r.Profile,
		Verdict: r.Verdict, Soak: TuneSoakJSON{Verdict: "not run", Runs: len(r.Soaks)}, Trials: r.Used(),
		Front: []TunePointJSON{}, Goal: r.Goal, Budget: r.Budget, Candidate: r.Candidate, UserOptions: r.Options,
		ProfileFile: profileFile, Candidates: r.Candidates, BudgetSpent: r.BudgetSpent, BudgetNeeded: r.BudgetNeeded, Notes: r.Notes}
	if j.Options == nil {
		j.Options = []string{}
	}
	if j.UserOptions == nil {
		j.UserOptions = []string{}
	}
	if r.Verdict != tune.None {
		j.Forms = TuneForms(r, profileFile)
	}
	if n := len(r.Soaks); n > 0 {
		s := r.Soaks[n-1]
		j.Soak = TuneSoakJSON{Verdict: s.Outcome.Verdict, Kind: s.Outcome.Kind, MemoryBytes: s.Point.MemoryBytes,
			Duration: s.Point.Soak, P99: s.Outcome.P99, StartSeconds: s.Outcome.StartSeconds,
			PeakBytes: s.Outcome.PeakBytes, Runs: n, TrialID: s.Outcome.TrialID}
	}
	if r.Verdict != tune.None && r.NonHeap.MeasuredBytes > 0 {
		nh := r.NonHeap
		j.NonHeap = &nh
	}
	if len(r.Reruns) > 0 {
		j.Reruns = &TuneRerunsJSON{Runs: len(r.Reruns), OK: r.RerunsOK()}
		for _, t := range r.Reruns {
			j.Reruns.Trials = append(j.Reruns.Trials, TuneSoakJSON{Verdict: t.Outcome.Verdict, Kind: t.Outcome.Kind,
				MemoryBytes: t.Point.MemoryBytes, Duration: t.Point.Soak, P99: t.Outcome.P99,
				StartSeconds: t.Outcome.StartSeconds, PeakBytes: t.Outcome.PeakBytes, Runs: 1, TrialID: t.Outcome.TrialID})
		}
	}
	for _, i := range r.Front {
		t := r.Trials[i]
		j.Front = append(j.Front, TunePointJSON{MemoryBytes: t.Point.MemoryBytes, Options: t.JVMOptions(), P99: t.Outcome.P99,
			StartSeconds: t.Outcome.StartSeconds, Verdict: trial.OK, Throttling: t.Outcome.Throttling,
			PeakBytes: t.Outcome.PeakBytes, Candidate: t.Point.Candidate, Chosen: i == r.Chosen, TrialID: t.Outcome.TrialID})
	}
	return j
}
