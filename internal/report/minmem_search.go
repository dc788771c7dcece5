package report

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/size"
)

// MinMemSearch summarises each search: the bracket it found, its
// precision and what it cost. The trials themselves are laid out by the
// report (seed 000's table).
func MinMemSearch(results []experiment.ModeResult) string {
	var b strings.Builder
	b.WriteString("| CPU | JVM | min OK | max KO | precision | trials | note |\n|---|---|---|---|---|---|---|\n")
	for _, m := range results {
		o := m.Outcome
		note := o.Note
		if o.Flaky {
			note = strings.TrimPrefix(note+"; verdicts disagreed between repeats (noise band "+size.Format(o.NoiseBand)+")", "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", num(m.CPUs), mdCell(m.JVM), mem(o.MinOK), mem(o.MaxKO), mem(o.Precision), len(o.Trials), mdCell(note))
	}
	return b.String()
}

// mdCell keeps text from apps and options from breaking the table.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
