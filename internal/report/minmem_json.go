package report

import (
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// MinMemJSON is `jvmfit minmem --json`. The keys min_ok_bytes, trials and
// each trial's limit_bytes and verdict are a published interface.
type MinMemJSON struct {
	ExperimentID   int64                      `json:"experiment_id,omitempty"`
	Modes          []ModeJSON                 `json:"modes"`
	Recommendation *experiment.Recommendation `json:"recommendation,omitempty"`
}

// ModeJSON is one option mode's search at one CPU count.
type ModeJSON struct {
	JVM            string      `json:"jvm"`
	CPUs           float64     `json:"cpus"`
	MinOKBytes     int64       `json:"min_ok_bytes"` // 0 = no limit in the range passed
	MaxKOBytes     int64       `json:"max_ko_bytes"` // 0 = nothing failed
	PrecisionBytes int64       `json:"precision_bytes"`
	Flaky          bool        `json:"flaky"`
	NoiseBandBytes int64       `json:"noise_band_bytes"`
	FloorBytes     int64       `json:"planner_floor_bytes"` // 0 = the planner refused no limit
	Note           string      `json:"note,omitempty"`
	TrialCount     int         `json:"trial_count"`
	Trials         []TrialJSON `json:"trials"`
}

// TrialJSON is one trial of a search, in the order run.
type TrialJSON struct {
	ID         int64         `json:"id,omitempty"`
	LimitBytes int64         `json:"limit_bytes"`
	Verdict    trial.Verdict `json:"verdict"`
	Kind       trial.Kind    `json:"kind,omitempty"`
	Failed     []string      `json:"failed,omitempty"`
	// Findings say what the app's output showed beside the verdict, such
	// as an OutOfMemoryError it caught and went on from: a KO on p99 or
	// errors may be a memory area at its cap (directbuf's Netty chunks).
	Findings        []string `json:"findings,omitempty"`
	Repeat          int      `json:"repeat"`
	StartSeconds    float64  `json:"start_seconds"`
	Throughput      float64  `json:"throughput"`
	HeapMaxBytes    int64    `json:"heap_max_bytes,omitempty"`
	MemoryPeakBytes int64    `json:"memory_peak_bytes"`
}

// NewMinMemJSON gathers the searches for --json.
func NewMinMemJSON(expID int64, results []experiment.ModeResult, rec *experiment.Recommendation) MinMemJSON {
	out := MinMemJSON{ExperimentID: expID, Modes: []ModeJSON{}, Recommendation: rec}
	for _, m := range results {
		o := m.Outcome
		mj := ModeJSON{JVM: m.JVM, CPUs: m.CPUs, MinOKBytes: o.MinOK, MaxKOBytes: o.MaxKO, PrecisionBytes: o.Precision,
			Flaky: o.Flaky, NoiseBandBytes: o.NoiseBand, FloorBytes: o.Floor, Note: o.Note, TrialCount: len(o.Trials), Trials: []TrialJSON{}}
		for _, p := range o.Trials {
			mj.Trials = append(mj.Trials, trialJSON(p))
		}
		out.Modes = append(out.Modes, mj)
	}
	return out
}

func trialJSON(p experiment.Probe) TrialJSON {
	r := p.Result
	t := TrialJSON{ID: r.ID, LimitBytes: p.MemoryBytes, Verdict: p.Verdict, Kind: r.Kind, Failed: r.Failed, Findings: r.Findings,
		Repeat: r.Spec.Repeat, StartSeconds: r.StartSeconds, HeapMaxBytes: r.HeapMaxBytes, MemoryPeakBytes: r.MemoryPeakBytes}
	if r.Load != nil {
		t.Throughput = r.Load.Throughput
	}
	return t
}
