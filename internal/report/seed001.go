package report

import (
	"strconv"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// CompareTables lays option sets side by side like seed 001: one column
// per configuration, rows for the phase times, GC time and its share,
// and the live set and mapped (committed) heap as MiB and % of the maximum
// heap. One table per cell (app, CPUs, memory, rate, JDK) that more than
// one configuration ran in; with repeats the latest trial stands.
func CompareTables(trials []*trial.Result, always bool) []Table {
	ts := sortedBySpec(sorted(trials))
	vary := varying(ts)
	cells := groupBy(ts, func(r *trial.Result) string {
		return label(r, vary, dimApp, dimCPUs, dimMemory, dimRate, dimJDK)
	}, specOrder(ts))
	var out []Table
	for _, c := range cells {
		var cols []*trial.Result
		byMode := map[string]int{}
		for _, r := range c.Trials {
			if i, ok := byMode[r.Spec.JVM]; ok {
				if r.ID > cols[i].ID {
					cols[i] = r
				}
				continue
			}
			byMode[r.Spec.JVM] = len(cols)
			cols = append(cols, r)
		}
		if len(cols) < 2 && !always {
			continue
		}
		title := "Option sets compared"
		if c.Label != "" {
			title += ": " + c.Label
		}
		t := Table{Title: title, Header: []string{"Configuration"}}
		for _, r := range cols {
			t.Header = append(t.Header, jvmLabel(r.Spec.JVM))
		}
		row := func(name string, f func(*trial.Result) string) {
			cells := []string{name}
			for _, r := range cols {
				cells = append(cells, f(r))
			}
			t.Rows = append(t.Rows, cells)
		}
		row("Result", shortResult)
		row("Start", startCell)
		row("Upload / warm-up time (s)", func(r *trial.Result) string { return seconds(warmupTime(r)) })
		row("Execute / measured time (s)", func(r *trial.Result) string { return seconds(measuredTime(r)) })
		row("Total time (s)", func(r *trial.Result) string { return seconds(warmupTime(r) + measuredTime(r)) })
		row("Total GC time (s)", func(r *trial.Result) string {
			if r.Summary.GCTime <= 0 {
				return dash
			}
			return seconds(r.Summary.GCTime) + " (" + percent2(r.Summary.GCShare) + ")"
		})
		sizeRow := func(name string, get func(trial.Summary) int64) {
			row(name, func(r *trial.Result) string {
				v := get(r.Summary)
				if v <= 0 {
					return dash
				}
				s := mib(v)
				if r.HeapMaxBytes > 0 {
					s += " (" + percent(float64(v)/float64(r.HeapMaxBytes)) + ")"
				}
				return s
			})
		}
		sizeRow("Live avg (MiB, % max heap)", func(s trial.Summary) int64 { return s.LiveAvg })
		sizeRow("Live peak", func(s trial.Summary) int64 { return s.LivePeak })
		sizeRow("Live avg, last 10 GCs", func(s trial.Summary) int64 { return s.Live10Avg })
		sizeRow("Phys avg (mapped heap)", func(s trial.Summary) int64 { return s.MappedAvg })
		sizeRow("Phys peak", func(s trial.Summary) int64 { return s.MappedPeak })
		sizeRow("Phys avg, last 10 GCs", func(s trial.Summary) int64 { return s.Mapped10Avg })
		row("Max heap (MiB)", func(r *trial.Result) string { return mib(r.HeapMaxBytes) })
		row("Container peak (MiB)", func(r *trial.Result) string { return mib(r.MemoryPeakBytes) })
		row("RSS peak (MiB)", func(r *trial.Result) string { return mib(r.Summary.RSSPeak) })
		row("Throughput (req/s)", func(r *trial.Result) string { return oneDecimal(throughput(r)) })
		row("p99", func(r *trial.Result) string {
			if r.Load == nil {
				return dash
			}
			return ms(r.Load.Latencies.P99)
		})
		out = append(out, t)
	}
	return out
}

// warmupTime is the time spent in phases before the measured one (seed
// 001's upload phase).
func warmupTime(r *trial.Result) time.Duration {
	var d time.Duration
	for _, p := range r.Phases {
		if p == nil || (r.Load != nil && p.Phase == r.Load.Phase) {
			continue
		}
		d += p.Duration
	}
	return d
}

func measuredTime(r *trial.Result) time.Duration {
	if r.Load == nil {
		return 0
	}
	return r.Load.Duration
}

// percent2 shows small shares such as GC time (0.21%) with two decimals.
func percent2(ratio float64) string {
	if ratio <= 0 {
		return "0%"
	}
	return strconv.FormatFloat(ratio*100, 'f', 2, 64) + "%"
}
