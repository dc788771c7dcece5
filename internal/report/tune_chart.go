package report

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// paretoChart draws the tune's search trials: memory limit across, p99 up;
// OK and KO apart, the front joined, the chosen point marked. Start time
// and throttling are in each point's tooltip.
func paretoChart(ts []*trial.Result) *chart {
	search := tuneSearchTrials(ts)
	if len(search) == 0 {
		return nil
	}
	front := tuneFront(search)
	chosen := tuneChosen(ts, search)
	c := &chart{Kind: "pareto", Title: "Tune: memory limit against p99", XName: "memory limit (MiB)", YName: "p99 (ms)",
		Note: "Every search trial: OK as green circles, KO as red diamonds (a KO that never answered a request is drawn on the top edge). " +
			"The Pareto front over memory, p99, start time and CPU throttling is joined by the line; the star is the point tune chose and soaked. " +
			"Point at a trial for its start time and throttling."}
	ok, ko := paretoSeries{Name: "OK", Role: "ok"}, paretoSeries{Name: "KO", Role: "ko"}
	fs, cs := paretoSeries{Name: "Pareto front", Role: "front"}, paretoSeries{Name: "chosen", Role: "chosen"}
	top := 0.0
	for _, r := range search {
		if r.Load != nil {
			top = max(top, msf(r.Load.Latencies.P99))
		}
	}
	if top == 0 {
		top = 1
	}
	for _, r := range search {
		pt := paretoPointOf(r)
		switch {
		case r.Verdict == trial.OK:
			ok.Points = append(ok.Points, pt)
		case pt.Y == 0:
			pt.Y, pt.Top = top*1.1, true
			ko.Points = append(ko.Points, pt)
		default:
			ko.Points = append(ko.Points, pt)
		}
	}
	for _, r := range front {
		fs.Points = append(fs.Points, paretoPointOf(r))
	}
	c.Pareto = []paretoSeries{ok, ko, fs}
	if chosen != nil {
		cs.Points = []paretoPoint{paretoPointOf(chosen)}
		c.Pareto = append(c.Pareto, cs)
	}
	return c
}

// paretoSeries is one layer of the tune chart; Role says how the page
// draws it (ok, ko, front, chosen).
type paretoSeries struct {
	Name   string        `json:"name"`
	Role   string        `json:"role"`
	Points []paretoPoint `json:"points"`
}

// paretoPoint is one trial on the tune chart: x the limit (MiB), y its p99
// (ms), and what its tooltip says.
type paretoPoint struct {
	ID    int64   `json:"id"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Start float64 `json:"start"`      // seconds to ready
	Thr   float64 `json:"throttling"` // throttled seconds per second
	Label string  `json:"label"`      // the configuration
	Text  string  `json:"text"`       // verdict and kind
	Top   bool    `json:"top,omitempty"`
}

func paretoPointOf(r *trial.Result) paretoPoint {
	p := paretoPoint{ID: r.ID, X: round1(mibf(r.Spec.MemoryBytes)), Start: round2(r.StartSeconds), Thr: round4(tuneThrottling(r)),
		Label: tuneLabel(r), Text: shortResult(r)}
	if r.Load != nil {
		p.Y = round2(msf(r.Load.Latencies.P99))
	}
	return p
}

func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
func round4(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }
