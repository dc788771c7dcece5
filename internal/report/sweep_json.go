package report

import (
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// SweepJSON is `jvmfit sweep --json` and `jvmfit compare --json`.
type SweepJSON struct {
	ExperimentID   int64                       `json:"experiment_id"`
	Cells          []CellJSON                  `json:"cells"`
	Knees          map[string]judge.KneeResult `json:"knees,omitempty"`
	Recommendation *experiment.Recommendation  `json:"recommendation,omitempty"`
	Stopped        string                      `json:"stopped,omitempty"`
}

// CellJSON is one sweep cell in `--json` output.
type CellJSON struct {
	experiment.Cell
	ID              int64         `json:"id,omitempty"`
	Verdict         trial.Verdict `json:"verdict"`
	Kind            trial.Kind    `json:"kind,omitempty"`
	Failed          []string      `json:"failed,omitempty"`
	Reused          bool          `json:"reused"`
	StartSeconds    float64       `json:"start_seconds"`
	Throughput      float64       `json:"throughput"`
	Success         float64       `json:"success"`
	P50Ms           float64       `json:"p50_ms"`
	P99Ms           float64       `json:"p99_ms"`
	MemoryPeakBytes int64         `json:"memory_peak_bytes"`
}

// cellsJSON flattens cells for --json.
func cellsJSON(cells []experiment.CellResult) []CellJSON {
	out := []CellJSON{}
	for _, c := range cells {
		r := c.Result
		j := CellJSON{Cell: c.Cell, ID: r.ID, Verdict: r.Verdict, Kind: r.Kind, Failed: r.Failed, Reused: c.Reused,
			StartSeconds: r.StartSeconds, MemoryPeakBytes: r.MemoryPeakBytes}
		if r.Load != nil {
			j.Throughput, j.Success = r.Load.Throughput, r.Load.Success
			j.P50Ms, j.P99Ms = float64(r.Load.Latencies.P50)/1e6, float64(r.Load.Latencies.P99)/1e6
		}
		out = append(out, j)
	}
	return out
}

// NewSweepJSON gathers a sweep's (or compare's) cells, knees (when it had
// more than one rate) and recommendation; runErr, when the sweep stopped
// early, is said in "stopped".
func NewSweepJSON(expID int64, cells []experiment.CellResult, rec *experiment.Recommendation, runErr error) SweepJSON {
	j := SweepJSON{ExperimentID: expID, Cells: cellsJSON(cells), Recommendation: rec}
	var rs []*trial.Result
	rates := map[float64]bool{}
	for _, c := range cells {
		rs = append(rs, c.Result)
		rates[c.Cell.Rate] = true
	}
	if len(rates) > 1 {
		j.Knees = Knees(rs)
	}
	if runErr != nil {
		j.Stopped = runErr.Error()
	}
	return j
}
