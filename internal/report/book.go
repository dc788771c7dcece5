package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// MarkdownAll writes several experiments as one report: an overview (what
// ran, how long it took, what each concluded), then one section per
// experiment with its own tables. One experiment is written as Markdown
// writes it.
func MarkdownAll(w io.Writer, ins []Input) error {
	if len(ins) == 1 {
		return Markdown(w, ins[0])
	}
	var b strings.Builder
	b.WriteString("# " + markdownCell.Replace(bookTitle(ins)) + "\n\n")
	for _, line := range bookHeader(ins) {
		b.WriteString(markdownCell.Replace(line) + "  \n")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if err := Overview(ins).markdown(w); err != nil {
		return err
	}
	if t := RateCurveTable(searchTrials(ins)); t != nil {
		if err := t.markdown(w); err != nil {
			return err
		}
	}
	for _, in := range ins {
		var s strings.Builder
		s.WriteString("## " + markdownCell.Replace(experimentTitle(in.Meta)) + "\n\n")
		for _, line := range headerLines(in) {
			s.WriteString(markdownCell.Replace(line) + "  \n")
		}
		s.WriteString("\n")
		if _, err := io.WriteString(w, s.String()); err != nil {
			return err
		}
		if err := sectionsMarkdown(w, in, "###"); err != nil {
			return err
		}
	}
	return nil
}

// sectionsMarkdown writes an experiment's tables, then what it concluded.
func sectionsMarkdown(w io.Writer, in Input, heading string) error {
	if len(in.Trials) == 0 {
		if _, err := io.WriteString(w, "No trials in this experiment.\n\n"); err != nil {
			return err
		}
	}
	for _, t := range Sections(in) {
		if err := t.markdown(w); err != nil {
			return err
		}
	}
	if s := in.Meta.Summary; s != nil {
		var b strings.Builder
		if s.Details != "" {
			b.WriteString(heading + " The search\n\n" + strings.TrimRight(s.Details, "\n") + "\n\n")
		}
		if s.Text != "" {
			b.WriteString(heading + " Recommendation\n\n" + strings.TrimRight(s.Text, "\n") + "\n\n")
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// Overview is the first table of a report on several experiments: one row
// per experiment with its trials, wall time and answer.
func Overview(ins []Input) Table {
	t := Table{Title: "Overview", Header: []string{"#", "Experiment", "Kind", "Trials", "OK", "KO", "Wall time", "Answer"}}
	total, totalWall := 0, time.Duration(0)
	for _, in := range ins {
		ok := 0
		for _, r := range in.Trials {
			if r != nil && r.Verdict == trial.OK {
				ok++
			}
		}
		wall, ended := wallTime(in)
		wallCell := dash
		if wall > 0 {
			wallCell = wall.Round(time.Second).String()
			if !ended {
				wallCell += " (not ended)"
			}
			totalWall += wall
		}
		answer := dash
		if in.Meta.Summary != nil && in.Meta.Summary.Headline != "" {
			answer = in.Meta.Summary.Headline
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(in.Meta.ID, 10), in.Meta.Name, in.Meta.Kind,
			strconv.Itoa(len(in.Trials)), strconv.Itoa(ok), strconv.Itoa(len(in.Trials) - ok), wallCell, answer})
		total += len(in.Trials)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("%d experiments, %d trials, %s of wall time in all.", len(ins), total, totalWall.Round(time.Second)))
	return t
}

// wallTime is how long an experiment ran: created to ended, or to its last
// trial when it never ended (interrupted, or still running).
func wallTime(in Input) (time.Duration, bool) {
	m := in.Meta
	if m.Created.IsZero() {
		return 0, !m.Ended.IsZero()
	}
	if !m.Ended.IsZero() {
		return m.Ended.Sub(m.Created), true
	}
	var last time.Time
	for _, r := range in.Trials {
		if r != nil && r.EndedAt.After(last) {
			last = r.EndedAt
		}
	}
	if last.Before(m.Created) {
		return 0, false
	}
	return last.Sub(m.Created), false
}

func bookTitle(ins []Input) string {
	names := make([]string, len(ins))
	for i, in := range ins {
		names[i] = in.Meta.Name
	}
	if s := strings.Join(names, ", "); len(s) <= 80 {
		return "jvmfit report: " + s
	}
	return fmt.Sprintf("jvmfit report: %d experiments", len(ins))
}

func experimentTitle(m Meta) string {
	if m.ID != 0 {
		return fmt.Sprintf("%s (#%d, %s)", m.Name, m.ID, m.Kind)
	}
	return m.Name
}

// bookHeader says where everything ran, and that the load generator is not
// isolated from the services it measures.
func bookHeader(ins []Input) []string {
	var all []*trial.Result
	for _, in := range ins {
		all = append(all, in.Trials...)
	}
	var lines []string
	if env := envLine(all); env != "" {
		lines = append(lines, "Environment: "+env+".")
	}
	if s := sharedCPUs(all); s != "" {
		lines = append(lines, s)
	}
	return lines
}

// sharedCPUs states the machine's core count when the trials drove load:
// jvmfit's load generator runs beside the service on the same cores, so at
// high rates or CPU counts it takes CPU the service would otherwise have.
func sharedCPUs(trials []*trial.Result) string {
	host, loaded := 0, false
	for _, r := range trials {
		if r == nil {
			continue
		}
		host = max(host, r.Env.HostCPUs)
		if rate(r) > 0 || r.Load != nil {
			loaded = true
		}
	}
	if host == 0 || !loaded {
		return ""
	}
	word := "cores"
	if host == 1 {
		word = "core"
	}
	return fmt.Sprintf("This machine has %d %s; the load generator and the services share them, so throughput and latency at high rates are pessimistic (the generator's own CPU use counts against the service).", host, word)
}

// searchTrials are the trials of the minmem experiments among ins, which
// seed 004's curve reads across (one search per rate).
func searchTrials(ins []Input) []*trial.Result {
	var out []*trial.Result
	for _, in := range ins {
		if in.Meta.Kind == "minmem" {
			out = append(out, in.Trials...)
		}
	}
	return out
}
