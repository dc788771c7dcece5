package report

import (
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// TrialTable lists every trial with its headline figures, in run order.
func TrialTable(trials []*trial.Result) Table {
	ts := sorted(trials)
	t := Table{Title: "All trials", Header: []string{"#", "App", "CPUs", "Memory", "JVM", "JDK", "Rate", "Result",
		"Start", "req/s", "p99", "Success", "Peak mem", "Heap max", "GC"}}
	for _, r := range ts {
		p99 := dash
		if r.Load != nil {
			p99 = ms(r.Load.Latencies.P99)
		}
		res := shortResult(r)
		if rs := reasons(r); r.Verdict == trial.KO && len(rs) > 0 {
			res += ": " + strings.Join(rs, "; ")
		}
		t.Rows = append(t.Rows, []string{
			strconv.FormatInt(r.ID, 10), appLabel(r), cpus(r.Spec.CPUs), dimValue(r, dimMemory), jvmLabel(r.Spec.JVM),
			strconv.Itoa(r.Spec.JDKVersion), rateCell(rate(r)), res, startCell(r),
			oneDecimal(throughput(r)), p99, successCell(r), mem(r.MemoryPeakBytes), mem(r.HeapMaxBytes),
			gcCell(r),
		})
	}
	return t
}

func gcCell(r *trial.Result) string {
	if r.Load == nil && r.Summary.GCTime == 0 {
		return dash
	}
	return percent2(r.Summary.GCShare)
}
