package tune

import (
	"fmt"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Markdown renders the result for a terminal or a note: the answer, its
// paste-ready forms, the Pareto front and what became of each candidate.
func (r *Result) Markdown(profileFile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## jvmfit tune: goal %s at %g CPU\n\n", r.Goal, r.CPUs)
	b.WriteString(r.answerText(profileFile))
	if r.Verdict != None {
		f := r.Forms(profileFile)
		fmt.Fprintf(&b, "\n### Paste-ready\n\n```sh\n%s\n```\n\n```sh\n%s\n```\n\n```yaml\n%s```\n", f.Exec, f.JavaToolOptions, f.Kubernetes)
	}
	b.WriteString(r.frontTable())
	b.WriteString(r.candidateTable())
	fmt.Fprintf(&b, "\n%d trials of a budget of %d", r.Used(), r.Budget)
	if r.BudgetSpent {
		b.WriteString(" (the search stopped for the budget)")
	}
	b.WriteString(".\n")
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\nNote: %s.\n", n)
	}
	return b.String()
}

func (r *Result) answerText(profileFile string) string {
	if r.Verdict == None {
		return "**No answer**: no candidate passed at any limit tried.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- **Limit**: %s, %g CPU, candidate `%s`: **%s**", size.Format(r.MemoryBytes), r.CPUs, r.Candidate, r.Verdict)
	if n := len(r.Soaks); n > 0 {
		s := r.Soaks[n-1]
		fmt.Fprintf(&b, " (soak of %s: %s, p99 %s, peak %s", s.Point.Soak, s.Outcome.Verdict,
			s.Outcome.P99.Round(10*time.Microsecond), size.Format(s.Outcome.PeakBytes))
		if n > 1 {
			fmt.Fprintf(&b, "; %d soaks, each a step above the last KO", n)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "\n- **Options** (the launcher's at that limit, then the candidate's): `%s`\n", strings.Join(r.JVMOptions(), " "))
	fmt.Fprintf(&b, "- **Profile**: %s%s\n", orText(profileFile, "not written"), profileText(r.Profile))
	return b.String()
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func profileText(p *plan.Profile) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(" (live set %s, metaspace %s + class space %s, code cache %s, %d threads)",
		size.Format(p.LiveHeapBytes), size.Format(p.MetaspaceUsedBytes), size.Format(p.ClassSpaceUsedBytes),
		size.Format(p.CodeCacheUsedBytes), p.PeakThreads)
}

func (r *Result) frontTable() string {
	if len(r.Front) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Pareto front\n\nThe OK search trials that no other beats on memory, p99, start time and CPU throttling at once.\n\n")
	b.WriteString("| limit | candidate | p99 | start | throttled | peak | |\n|---|---|---|---|---|---|---|\n")
	for _, i := range r.Front {
		t := r.Trials[i]
		mark := ""
		if i == r.Chosen {
			mark = "chosen"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f s | %.1f%% | %s | %s |\n", size.Format(t.Point.MemoryBytes), t.Point.Candidate,
			t.Outcome.P99.Round(10*time.Microsecond), t.Outcome.StartSeconds, 100*t.Outcome.Throttling, size.Format(t.Outcome.PeakBytes), mark)
	}
	return b.String()
}

func (r *Result) candidateTable() string {
	if len(r.Candidates) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Candidates\n\n| candidate | floor | lowest OK | highest KO | trials | outcome |\n|---|---|---|---|---|---|\n")
	for _, c := range r.Candidates {
		out := c.Dropped
		switch {
		case out == "" && c.Converged:
			out = "converged"
		case out == "":
			out = "open when the search stopped"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s |\n", c.Name, size.Format(c.FloorBytes), sizeOrDash(c.MinOKBytes),
			sizeOrDash(c.MaxKOBytes), c.Trials, out)
	}
	return b.String()
}

func sizeOrDash(b int64) string {
	if b == 0 {
		return "–"
	}
	return size.Format(b)
}
