package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// A finished tune in Markdown, its stored summary, and its forms. The
// Pareto front is the one table TuneFrontTable lays out from stored
// trials, here from the tune's own result.

// TuneMarkdown renders the result for a terminal or a note: the answer, its
// paste-ready forms, the Pareto front and what became of each candidate.
func TuneMarkdown(r *tune.Result, profileFile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## jvmfit tune: goal %s at %g CPU\n\n", r.Goal, r.CPUs)
	b.WriteString(tuneAnswerText(r, profileFile))
	if r.Verdict != tune.None {
		f := TuneForms(r, profileFile)
		fmt.Fprintf(&b, "\n### Paste-ready\n\n```sh\n%s\n```\n\n```sh\n%s\n```\n\n```yaml\n%s```\n", f.Exec, f.JavaToolOptions, f.Kubernetes)
	}
	b.WriteString(tuneResultFront(r))
	b.WriteString(tuneCandidateTable(r))
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

func tuneAnswerText(r *tune.Result, profileFile string) string {
	if r.Verdict == tune.None {
		if r.BudgetNeeded > 0 {
			return fmt.Sprintf("**No answer**: no limit was held for the soak's length within the budget of %d; a proof needs --budget %d or more (see the notes).\n", r.Budget, r.BudgetNeeded)
		}
		if len(r.Soaks) > 0 {
			return "**No answer**: every soak failed (see the notes); tune answers no limit no trial as long as the soak passed at.\n"
		}
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
	if n := len(r.Reruns); n > 0 {
		fmt.Fprintf(&b, "\n- **Reruns**: %d of %d fresh reruns as recommended passed (", r.RerunsOK(), n)
		for i, t := range r.Reruns {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s", t.Outcome.Verdict)
			if t.Outcome.Kind != "" {
				fmt.Fprintf(&b, " %s", t.Outcome.Kind)
			}
			fmt.Fprintf(&b, ", p99 %s, peak %s", t.Outcome.P99.Round(10*time.Microsecond), size.Format(t.Outcome.PeakBytes))
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "\n- **Options** (the launcher's at that limit, then the candidate's): `%s`\n", strings.Join(r.JVMOptions(), " "))
	fmt.Fprintf(&b, "- **Profile**: %s%s\n", orText(profileFile, "not written"), tuneProfileText(r.Profile))
	if nh := r.NonHeap; nh.MeasuredBytes > 0 {
		fmt.Fprintf(&b, "- **Non-heap at the answer**: planned %s against %s measured under the candidate's options (heap: %s)\n",
			size.Format(nh.PlannedBytes), size.Format(nh.MeasuredBytes), nh.Why)
	}
	return b.String()
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func tuneProfileText(p *plan.Profile) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf(" (live set %s, metaspace %s + class space %s, code cache %s, %d threads)",
		size.Format(p.LiveHeapBytes), size.Format(p.MetaspaceUsedBytes), size.Format(p.ClassSpaceUsedBytes),
		size.Format(p.CodeCacheUsedBytes), p.PeakThreads)
}

// tuneResultFront is the Pareto front of a tune's result, laid out as
// TuneFrontTable lays out the stored trials' front.
func tuneResultFront(r *tune.Result) string {
	if len(r.Front) == 0 {
		return ""
	}
	t := tuneFrontLayout()
	for _, i := range r.Front {
		tr := r.Trials[i]
		t.Rows = append(t.Rows, tuneFrontRow(tr.Outcome.TrialID, tr.Point.MemoryBytes, tr.Point.Candidate, tr.Outcome.P99,
			tr.Outcome.StartSeconds, tr.Outcome.Throttling, tr.Outcome.PeakBytes, i == r.Chosen))
	}
	var b strings.Builder
	b.WriteString("\n")
	t.markdown(&b)
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func tuneCandidateTable(r *tune.Result) string {
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
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s |\n", c.Name, size.Format(c.FloorBytes), mem(c.MinOKBytes),
			mem(c.MaxKOBytes), c.Trials, out)
	}
	return b.String()
}

// TuneSummary is tune's answer as the experiment's stored summary, which
// `jvmfit report` renders: the answer and its paste-ready forms as the
// recommendation, the Pareto front and the candidates as the search.
func TuneSummary(r *tune.Result, profileFile string) judge.Summary {
	head := "no answer"
	if r.Verdict != tune.None {
		head = fmt.Sprintf("%s, %g CPU, %s (%s)", size.Format(r.MemoryBytes), r.CPUs, r.Candidate, r.Verdict)
	}
	text := tuneAnswerText(r, profileFile)
	if r.Verdict != tune.None {
		f := TuneForms(r, profileFile)
		text += fmt.Sprintf("\nPaste-ready:\n\n```sh\n%s\n```\n\n```sh\n%s\n```\n\n```yaml\n%s```\n", f.Exec, f.JavaToolOptions, f.Kubernetes)
	}
	details := strings.TrimLeft(tuneResultFront(r)+tuneCandidateTable(r), "\n")
	details += fmt.Sprintf("\n%d trials of a budget of %d.\n", r.Used(), r.Budget)
	return judge.Summary{Headline: head, Text: text, Details: details}
}
