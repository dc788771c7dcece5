package trial

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Line is the one-line summary in the style of seed 000's tables:
// CPUs, limit (heap), OK/KO with the reason, start, req/s, p99, p99.9,
// peak.
//
//	1 CPU | 300Mi (heap 126Mi) | OK | start 2.31s | 98.7 req/s | p99 4.1ms | p99.9 9.8ms | peak 187Mi
func (r *Result) Line() string {
	parts := []string{limitsText(r.Spec)}
	mem := "no limit"
	if !r.Spec.NoLimits && r.Spec.MemoryBytes > 0 {
		mem = size.Format(r.Spec.MemoryBytes)
	}
	if r.HeapMaxBytes > 0 {
		mem += " (heap " + size.Format(r.HeapMaxBytes) + ")"
	}
	parts[0] = cpusText(r.Spec)
	parts = append(parts, mem)
	verdict := string(r.Verdict)
	if r.Verdict == KO {
		verdict = "KO " + string(r.Kind)
		if len(r.Failed) > 0 {
			verdict += ": " + r.Failed[0]
			if len(r.Failed) > 1 {
				verdict += fmt.Sprintf(" (+%d more)", len(r.Failed)-1)
			}
		}
	}
	for _, f := range r.Findings {
		verdict += "; " + f
	}
	parts = append(parts, verdict)
	if r.StartSeconds > 0 {
		parts = append(parts, "start "+strconv.FormatFloat(r.StartSeconds, 'f', 2, 64)+"s")
	}
	if r.Load != nil && r.Load.Requests > 0 {
		parts = append(parts, fmt.Sprintf("%.1f req/s", r.Load.Throughput), "p99 "+roundDur(r.Load.Latencies.P99).String(),
			"p99.9 "+roundDur(r.Load.Latencies.P999).String())
	}
	if r.MemoryPeakBytes > 0 {
		parts = append(parts, "peak "+size.Format(r.MemoryPeakBytes))
	}
	return strings.Join(parts, " | ")
}

func cpusText(s Spec) string {
	switch {
	case s.NoLimits:
		return "no CPU limit"
	case s.CPUs > 0 && s.CPUSet != "":
		return fmt.Sprintf("%g CPU (cpuset %s)", s.CPUs, s.CPUSet)
	case s.CPUs > 0:
		return fmt.Sprintf("%g CPU", s.CPUs)
	case s.CPUSet != "":
		return "cpuset " + s.CPUSet
	}
	return "no CPU limit"
}

func limitsText(s Spec) string {
	if s.NoLimits {
		return "no limits"
	}
	return cpusText(s) + ", " + size.Format(s.MemoryBytes)
}
