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
		cols := latestPerMode(c.Trials)
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
		for _, row := range compareRows {
			cells := []string{row.name}
			for _, r := range cols {
				cells = append(cells, row.cell(r))
			}
			t.Rows = append(t.Rows, cells)
		}
		out = append(out, t)
	}
	return out
}

// latestPerMode is one column per option mode, in order of appearance:
// with repeats, the latest trial stands.
func latestPerMode(ts []*trial.Result) []*trial.Result {
	var cols []*trial.Result
	byMode := map[string]int{}
	for _, r := range ts {
		if i, ok := byMode[r.Spec.JVM]; ok {
			if r.ID > cols[i].ID {
				cols[i] = r
			}
			continue
		}
		byMode[r.Spec.JVM] = len(cols)
		cols = append(cols, r)
	}
	return cols
}

// compareRows are seed 001's rows, in its order.
var compareRows = []struct {
	name string
	cell func(*trial.Result) string
}{
	{"Result", shortResult},
	{"Start", startCell},
	{"Upload / warm-up time (s)", func(r *trial.Result) string { return seconds(warmupTime(r)) }},
	{"Execute / measured time (s)", func(r *trial.Result) string { return seconds(measuredTime(r)) }},
	{"Total time (s)", func(r *trial.Result) string { return seconds(warmupTime(r) + measuredTime(r)) }},
	{"Total GC time (s)", func(r *trial.Result) string {
		if r.Summary.GCTime <= 0 {
			return dash
		}
		return seconds(r.Summary.GCTime) + " (" + percent2(r.Summary.GCShare) + ")"
	}},
	{"Live avg (MiB, % max heap)", heapShare(func(s trial.Summary) int64 { return s.LiveAvg })},
	{"Live peak", heapShare(func(s trial.Summary) int64 { return s.LivePeak })},
	{"Live avg, last 10 GCs", heapShare(func(s trial.Summary) int64 { return s.Live10Avg })},
	{"Phys avg (mapped heap)", heapShare(func(s trial.Summary) int64 { return s.MappedAvg })},
	{"Phys peak", heapShare(func(s trial.Summary) int64 { return s.MappedPeak })},
	{"Phys avg, last 10 GCs", heapShare(func(s trial.Summary) int64 { return s.Mapped10Avg })},
	{"Max heap (MiB)", func(r *trial.Result) string { return mib(r.HeapMaxBytes) }},
	{"Container peak (MiB)", func(r *trial.Result) string { return mib(r.MemoryPeakBytes) }},
	{"Working set peak (MiB)", func(r *trial.Result) string { return mib(workingSetPeak(r)) }},
	{"RSS peak (MiB)", func(r *trial.Result) string { return mib(r.Summary.RSSPeak) }},
	{"RSS anon peak (MiB)", func(r *trial.Result) string { return mib(anonPeak(r)) }},
	{"Throughput (req/s)", func(r *trial.Result) string { return oneDecimal(throughput(r)) }},
	{"p99", func(r *trial.Result) string {
		if r.Load == nil {
			return dash
		}
		return ms(r.Load.Latencies.P99)
	}},
}

// heapShare is a size in MiB with its share of the maximum heap.
func heapShare(get func(trial.Summary) int64) func(*trial.Result) string {
	return func(r *trial.Result) string {
		v := get(r.Summary)
		if v <= 0 {
			return dash
		}
		s := mib(v)
		if r.HeapMaxBytes > 0 {
			s += " (" + percent(float64(v)/float64(r.HeapMaxBytes)) + ")"
		}
		return s
	}
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
