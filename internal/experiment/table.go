package experiment

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// resultText is seed 000's result cell: "OK (9.9s start, 1003req/s)" or
// "KO (oom-killed)".
func resultText(r *trial.Result) string {
	if r.Verdict == trial.OK {
		rps := 0.0
		if r.Load != nil {
			rps = r.Load.Throughput
		}
		return fmt.Sprintf("OK (%.1fs start, %.0freq/s)", r.StartSeconds, rps)
	}
	why := string(r.Kind)
	if r.Kind == trial.KindSLO && len(r.Failed) > 0 {
		why = strings.Join(r.Failed, "; ")
	}
	if why == "" {
		return "KO"
	}
	return "KO (" + why + ")"
}

// limitText is seed 000's memory cell: the limit with the heap the JVM
// chose in brackets, "300Mi(121Mi)".
func limitText(r *trial.Result) string {
	s := size.Format(r.Spec.MemoryBytes)
	if r.HeapMaxBytes > 0 {
		s += "(" + size.Format(r.HeapMaxBytes) + ")"
	}
	return s
}

// MinMemMarkdown summarises each search: the bracket it found, its
// precision and what it cost. The trials themselves are laid out by the
// report (seed 000's table).
func MinMemMarkdown(results []ModeResult) string {
	var b strings.Builder
	b.WriteString("| CPU | JVM | min OK | max KO | precision | trials | note |\n|---|---|---|---|---|---|---|\n")
	for _, m := range results {
		o := m.Outcome
		note := o.Note
		if o.Flaky {
			note = strings.TrimPrefix(note+"; verdicts disagreed between repeats (noise band "+size.Format(o.NoiseBand)+")", "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", fmtCPUs(m.CPUs), mdCell(m.JVM), sizeOrDash(o.MinOK), sizeOrDash(o.MaxKO), sizeOrDash(o.Precision), len(o.Trials), mdCell(note))
	}
	return b.String()
}

func sizeOrDash(b int64) string {
	if b <= 0 {
		return "–"
	}
	return size.Format(b)
}

// mdCell keeps text from apps and options from breaking the table.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
