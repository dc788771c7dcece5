package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A minmem, sweep or compare recommendation in Markdown: the answer, its
// proof (or the command that proves it) and the three ways to apply it.

func cpuWord(c float64) string {
	if c == 1 {
		return "1 CPU"
	}
	return num(c) + " CPUs"
}

// Markdown is the answer with the three ways to apply it.
func RecommendationMarkdown(r *experiment.Recommendation) string {
	return "## Recommendation\n\n" + recommendationBody(r)
}

// Headline is the answer in one line, for overviews.
func recommendationHeadline(r *experiment.Recommendation) string {
	return fmt.Sprintf("%s, %s, --jvm %s", size.Format(r.MemoryBytes), cpuWord(r.CPUs), r.JVM)
}

// Summary is what the experiment stores for later reports
// (store.SetSummary); details is extra Markdown such as minmem's search table.
func RecommendationSummary(r *experiment.Recommendation, details string) judge.Summary {
	return judge.Summary{Headline: recommendationHeadline(r), Text: recommendationBody(r), Details: details}
}

// Body is Markdown without its heading, so a report can nest it.
func recommendationBody(r *experiment.Recommendation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- **Memory limit: %s** = minimum OK %s + margin %s (margin rule: %s)\n", size.Format(r.MemoryBytes), size.Format(r.MinOKBytes), size.Format(r.MarginBytes), r.MarginWhy)
	b.WriteString(soakText(r))
	fmt.Fprintf(&b, "- **CPUs: %s**\n", num(r.CPUs))
	fmt.Fprintf(&b, "- **JVM options: %s** (%s)\n", optionsText(r), r.Why)
	if r.Java != "" {
		fmt.Fprintf(&b, "- Java: `%s`\n", r.Java)
	}
	b.WriteString("\nApply it in one of three ways:\n\n")
	b.WriteString("1. " + entrypoint(r) + "\n\n")
	if len(r.Options) > 0 {
		b.WriteString("2. The same options fixed in the environment (valid only at this limit):\n\n")
		fmt.Fprintf(&b, "   ```sh\n   JAVA_TOOL_OPTIONS=%s\n   ```\n\n", plan.ShellQuote(strings.Join(r.Options, " ")))
	} else {
		b.WriteString("2. No `JAVA_TOOL_OPTIONS` are needed: the JDK defaults passed at this limit.\n\n")
	}
	b.WriteString("3. The Kubernetes container resources (request = limit, so the tested limits are the ones it gets):\n\n")
	b.WriteString("   ```yaml\n")
	b.WriteString(indent(Kubernetes(r.Answer()), "   "))
	b.WriteString("   ```\n")
	return b.String()
}

// entrypoint says how to start the JVM so it gets what was tested.
func entrypoint(r *experiment.Recommendation) string {
	const df = "\n\n   ```dockerfile\n   ENTRYPOINT [%s]\n   ```"
	quote := func(args []string) string {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = strconv.Quote(a)
		}
		return strings.Join(q, ", ")
	}
	switch {
	case jvmopts.ParseMode(r.JVM).Launcher:
		args := []string{"/jvmfit", "exec"}
		if _, goal, ok := strings.Cut(r.JVM, ":"); ok {
			args = append(args, "--goal", goal)
		}
		if r.Profile != "" {
			args = append(args, "--profile", r.Profile)
		}
		proof := ""
		switch {
		case r.ViaExec:
			proof = " The soak ran the app through `jvmfit exec` in the trial's cgroup, as here."
		case len(r.Soak) > 0:
			proof = " **Not proven through `jvmfit exec`**: the soak ran java with the launcher's options on its command line (the descriptor's command does not start java itself, so `jvmfit exec` could not wrap it); what it proved is the `JAVA_TOOL_OPTIONS` form below."
		}
		return "`jvmfit exec` as the entrypoint: it reads the container's limits at start and computes these options itself, so they follow the limit if it changes." + proof +
			fmt.Sprintf(df, quote(append(args, "--", "java", "-jar", "/app.jar")))
	case len(r.Options) == 0:
		return "Start `java` as it is: the JDK defaults passed. (`jvmfit exec` would add jvmfit's own options, a configuration this run did not choose; compare it with `--jvm default,jvmfit`.)" +
			fmt.Sprintf(df, quote([]string{"java", "-jar", "/app.jar"}))
	default:
		// An option set (or the user's own options) was tested as given on
		// the java command line, not through jvmfit exec, which would add
		// its own options for what they leave open: recommend what ran.
		return fmt.Sprintf("`java` with exactly these options, as the trials ran them: `--jvm %s` put them on the java command line (after the descriptor's own jvm_options); this was not tested through `jvmfit exec`, which would add options of its own.", r.JVM) +
			fmt.Sprintf(df, quote(append(append([]string{"java"}, r.Options...), "-jar", "/app.jar")))
	}
}

func optionsText(r *experiment.Recommendation) string {
	if len(r.Options) == 0 {
		return "JDK defaults (none)"
	}
	return "`" + strings.Join(r.Options, " ") + "`"
}

func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(pre + l)
		}
	}
	return b.String()
}

// soakText is the recommendation's proof in one Markdown bullet.
func soakText(r *experiment.Recommendation) string {
	if len(r.Soak) == 0 {
		return unprovenText(r)
	}
	var ko []string
	for _, s := range r.Soak {
		if s.Verdict != trial.OK {
			ko = append(ko, fmt.Sprintf("%s (%s)", size.Format(s.MemoryBytes), strings.Join(s.Failed, "; ")))
		}
	}
	last := r.Soak[len(r.Soak)-1]
	if !r.Tested {
		return fmt.Sprintf("- **Not proven**: a %s soak failed at %s. The footprint grows over a longer run than the search's trials: search again with a --duration closer to the soak's\n",
			last.Duration, strings.Join(ko, ", "))
	}
	trialNo := ""
	if last.TrialID > 0 {
		trialNo = fmt.Sprintf("trial #%d: ", last.TrialID)
	}
	s := fmt.Sprintf("- **Proven by a soak**: %s at %s, OK (%sp99 %s, peak %s)", last.Duration, size.Format(last.MemoryBytes),
		trialNo, last.P99.Round(10*time.Microsecond), size.Format(last.MemoryPeakBytes))
	if len(ko) > 0 {
		s += "; it failed first at " + strings.Join(ko, ", ")
	}
	return s + "\n"
}

// unprovenText labels a recommendation no soak proved (sweep and compare
// without --soak, minmem with --soak 0): the limit with its margin never
// ran, and a jvmfit mode's `jvmfit exec` entrypoint never ran at all. It
// gives the command that proves it as recommended.
func unprovenText(r *experiment.Recommendation) string {
	what := "no trial ran at this limit"
	if r.Tested {
		what = "a trial of the search passed at this limit, but no soak ran"
	}
	if jvmopts.ParseMode(r.JVM).Launcher {
		what += ", and no trial ran the app through `jvmfit exec` as recommended below (the trials put the launcher's options on the java command line)"
	}
	cmd := ProveCommand(r)
	if cmd == "" {
		return fmt.Sprintf("- **Not proven**: %s\n", what)
	}
	return fmt.Sprintf("- **Not proven**: %s. Prove it, as recommended, with a soak:\n\n  ```sh\n  %s\n  ```\n\n", what, cmd)
}

// ProveCommand is the `jvmfit run` that runs the recommendation as it is
// recommended: at its limit and CPUs, for experiment.DefaultSoak, and a jvmfit mode
// through `jvmfit exec` (--via-exec) with its profile. Empty when the
// descriptor is not known.
func ProveCommand(r *experiment.Recommendation) string {
	if r.App == "" {
		return ""
	}
	args := []string{"jvmfit", "run", "--app", r.App, "--memory", k8sQuantity(r.MemoryBytes), "--cpus", num(r.CPUs), "--jvm", r.JVM}
	if jvmopts.ParseMode(r.JVM).Launcher {
		args = append(args, "--via-exec")
		if r.Profile != "" {
			args = append(args, "--profile", r.Profile)
		}
	}
	if r.Java != "" {
		args = append(args, "--java", r.Java)
	}
	if r.Rate > 0 {
		args = append(args, "--rate", strconv.FormatFloat(r.Rate, 'g', -1, 64))
	}
	args = append(args, "--duration", strings.TrimSuffix(experiment.DefaultSoak.String(), "0s"))
	return plan.ShellJoin(args)
}

// Summarize is an experiment's stored summary (Session.Summarize): the
// recommendation, and for minmem the table of its searches.
func Summarize(rec *experiment.Recommendation, search []experiment.ModeResult) judge.Summary {
	details := ""
	if len(search) > 0 {
		details = MinMemSearch(search)
	}
	return RecommendationSummary(rec, details)
}
