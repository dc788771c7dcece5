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
		"Start", "req/s", "p99", "p99.9", "Success", "Peak mem", "Working set", "RSS anon", "Heap max", "GC"}}
	svcs := serviceNames(ts)
	for _, n := range svcs {
		t.Header = append(t.Header, n+" limit", n+" peak")
	}
	for _, r := range ts {
		p99, p999 := dash, dash
		if r.Load != nil {
			p99, p999 = ms(r.Load.Latencies.P99), ms(r.Load.Latencies.P999)
		}
		res := shortResult(r)
		if rs := reasons(r); r.Verdict == trial.KO && len(rs) > 0 {
			res += ": " + strings.Join(rs, "; ")
		}
		row := []string{
			strconv.FormatInt(r.ID, 10), appLabel(r), cpus(r.Spec.CPUs), dimValue(r, dimMemory), jvmLabel(r.Spec.JVM),
			strconv.Itoa(r.Spec.JDKVersion), rateCell(rate(r)), res, startCell(r),
			oneDecimal(throughput(r)), p99, p999, successCell(r), mem(r.MemoryPeakBytes), mem(workingSetPeak(r)), mem(anonPeak(r)), mem(r.HeapMaxBytes),
			gcCell(r),
		}
		for _, n := range svcs {
			row = append(row, serviceCells(r, n)...)
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, memoryNote)
	return t
}

// memoryNote says what the three memory columns count.
const memoryNote = "Peak mem: the cgroup's peak usage, page cache included. Working set: usage minus inactive file pages, what the kubelet evicts on and kubectl top shows. " +
	"RSS anon: the JVM's anonymous resident memory (heap, metaspace, malloc, stacks), the highest of the stored samples; the summary keeps no such peak, so a trial stored without samples shows —."

// serviceNames are the services (a database) the trials started, in the
// order they first appear.
func serviceNames(ts []*trial.Result) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range ts {
		for _, s := range r.Services {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	return names
}

// serviceCells are a service's memory limit and peak in one trial.
func serviceCells(r *trial.Result, name string) []string {
	for _, s := range r.Services {
		if s.Name != name {
			continue
		}
		limit, peak := dash, mem(s.MemoryPeak)
		if s.MemoryBytes > 0 {
			limit = mem(s.MemoryBytes)
		}
		if s.OOMKilled {
			peak += " (OOM-killed)"
		}
		return []string{limit, peak}
	}
	return []string{dash, dash}
}

func gcCell(r *trial.Result) string {
	if r.Load == nil && r.Summary.GCTime == 0 {
		return dash
	}
	return percent2(r.Summary.GCShare)
}
