package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Sections picks the tables that suit the trials: seed 000's memory table
// when limits vary (or for minmem), seed 002's sweep when rates vary (or
// for sweep), seed 001's comparison where option sets share a cell (always
// for compare), and the list of all trials.
func Sections(in Input) []Table {
	ts := sorted(in.Trials)
	if len(ts) == 0 {
		return nil
	}
	vary := varying(ts)
	var out []Table
	tune := in.Meta.Kind == store.KindTune
	if tune {
		for _, t := range []*Table{TuneSearchTable(ts), TuneFrontTable(ts), TuneSoakTable(ts)} {
			if t != nil {
				out = append(out, *t)
			}
		}
	}
	// A tune's limits are its candidates' searches, shown above: a table of
	// limits across them would read as a second answer.
	if in.Meta.Kind == "minmem" || vary[dimMemory] && !tune {
		out = append(out, MemoryTables(ts)...)
	}
	if in.Meta.Kind == "sweep" || vary[dimRate] {
		out = append(out, SweepTables(ts)...)
	}
	if vary[dimRate] && vary[dimMemory] && !tune {
		if t := RateCurveTable(ts); t != nil { // seed 004's, within one experiment
			out = append(out, *t)
		}
	}
	// minmem and sweep already lay option modes out their own way; a
	// side-by-side table there would repeat every shared cell.
	if k := in.Meta.Kind; k != "minmem" && k != "sweep" && !tune {
		out = append(out, CompareTables(ts, k == "compare")...)
	}
	if t := NMTPeakTable(ts); t != nil {
		out = append(out, *t)
	}
	return append(out, TrialTable(ts))
}

// Markdown writes the whole report.
func Markdown(w io.Writer, in Input) error {
	var b strings.Builder
	b.WriteString("# " + markdownCell.Replace(title(in.Meta)) + "\n\n")
	for _, line := range headerLines(in) {
		b.WriteString(markdownCell.Replace(line) + "  \n")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return sectionsMarkdown(w, in, "##")
}

func title(m Meta) string {
	if m.Name == "" {
		return "jvmfit report"
	}
	return "jvmfit report: " + m.Name
}

// headerLines say what was run, when and where.
func headerLines(in Input) []string {
	m := in.Meta
	var lines []string
	var parts []string
	if m.ID != 0 {
		parts = append(parts, fmt.Sprintf("Experiment #%d", m.ID))
	}
	if m.Kind != "" {
		parts = append(parts, m.Kind)
	}
	if !m.Created.IsZero() {
		parts = append(parts, "started "+m.Created.UTC().Format("2006-01-02 15:04 UTC"))
	}
	switch {
	case !m.Ended.IsZero():
		parts = append(parts, "ended "+m.Ended.UTC().Format("2006-01-02 15:04 UTC"))
	case m.ID != 0:
		parts = append(parts, "not ended (running or interrupted)")
	}
	ok := 0
	for _, r := range in.Trials {
		if r != nil && r.Verdict == trial.OK {
			ok++
		}
	}
	parts = append(parts, fmt.Sprintf("%d trials (%d OK, %d KO)", len(in.Trials), ok, len(in.Trials)-ok))
	lines = append(lines, strings.Join(parts, ", ")+".")
	if env := envLine(in.Trials); env != "" {
		lines = append(lines, "Environment: "+env+".")
	}
	if s := m.Summary; s != nil && s.Headline != "" {
		lines = append(lines, "Answer: "+s.Headline+".")
	}
	return lines
}

// envLine describes where the trials ran, from the first trial; trials run
// elsewhere are counted, not hidden.
func envLine(trials []*trial.Result) string {
	ts := sorted(trials)
	if len(ts) == 0 {
		return ""
	}
	e := ts[0].Env
	var parts []string
	if e.CPUModel != "" {
		s := e.CPUModel
		if e.HostCPUs > 0 {
			s += fmt.Sprintf(" (%d CPUs)", e.HostCPUs)
		}
		parts = append(parts, s)
	}
	if e.Kernel != "" {
		parts = append(parts, "kernel "+e.Kernel)
	}
	if e.Cgroup != "" {
		parts = append(parts, "cgroup "+e.Cgroup)
	}
	if e.JDK != "" {
		parts = append(parts, e.JDK)
	}
	if e.Jvmfit != "" {
		parts = append(parts, "jvmfit "+e.Jvmfit)
	}
	other := 0
	for _, r := range ts[1:] {
		if r.Env.Kernel != e.Kernel || r.Env.CPUModel != e.CPUModel || r.Env.Cgroup != e.Cgroup {
			other++
		}
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d trials ran on another machine or kernel", other))
	}
	return strings.Join(parts, ", ")
}
