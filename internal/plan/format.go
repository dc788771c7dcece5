package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Formats accepted by Write.
var Formats = []string{"shell", "json", "java-tool-options", "dockerfile", "k8s"}

// Write prints the plan in one of Formats.
func (p *Plan) Write(w io.Writer, format string) error {
	return WriteOptions(w, format, Emitted{Options: p.Options, Env: p.Env, LimitBytes: p.LimitBytes, CPUs: p.CPUs}, p)
}

// Emitted is what a format prints: options with their environment, for a
// limit and CPU count. The launcher's plan and the anchor styles share it.
type Emitted struct {
	Options    []string
	Env        map[string]string
	LimitBytes int64
	CPUs       float64
}

// WriteOptions prints e in one of Formats; the json format encodes whole,
// the value the caller describes e with.
func WriteOptions(w io.Writer, format string, e Emitted, whole any) error {
	line := ShellJoin(e.Options)
	keys := envKeys(e.Env)
	switch format {
	case "", "shell":
		_, err := fmt.Fprintln(w, line)
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(whole)
	case "java-tool-options":
		fmt.Fprintf(w, "export JAVA_TOOL_OPTIONS=%s\n", ShellQuote(line))
		for _, k := range keys {
			fmt.Fprintf(w, "export %s=%s\n", k, ShellQuote(e.Env[k]))
		}
		return nil
	case "dockerfile":
		fmt.Fprintf(w, "ENV JAVA_TOOL_OPTIONS=%q\n", line)
		for _, k := range keys {
			fmt.Fprintf(w, "ENV %s=%q\n", k, e.Env[k])
		}
		return nil
	case "k8s":
		fmt.Fprintf(w, "resources:\n  limits:\n    memory: %s\n    cpu: %q\nenv:\n", size.Format(e.LimitBytes), trimFloat(e.CPUs))
		fmt.Fprintf(w, "  - name: JAVA_TOOL_OPTIONS\n    value: %q\n", line)
		for _, k := range keys {
			fmt.Fprintf(w, "  - name: %s\n    value: %q\n", k, e.Env[k])
		}
		return nil
	}
	return fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, ", "))
}

func trimFloat(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%.3g", f), ".0") }

func envKeys(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Explain prints the options and the memory split as tables.
func (p *Plan) Explain(w io.Writer) error {
	fmt.Fprintf(w, "limit %s, %s CPUs (counted as %d), JDK %d, goal %s: %s GC, %s\n\n",
		size.Format(p.LimitBytes), trimFloat(p.CPUs), p.CPUCount, p.JDK, p.Goal, p.GC, map[bool]string{true: "C1 only", false: "C1+C2"}[p.C1Only])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPTION\tVALUE\tREGION\tREASON")
	for _, r := range p.Reasons {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Value, r.Region, r.Why)
	}
	for _, k := range p.Kept {
		fmt.Fprintf(tw, "%s\t(yours)\t\tyour option wins; the rest is planned around it\n", k)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "REGION\tSIZE\tSHARE\tFROM\t")
	for _, r := range p.Regions {
		fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%s\t  %s\n", r.Name, size.Format(r.Bytes), 100*float64(r.Bytes)/float64(p.LimitBytes), r.Source, r.Why)
	}
	fmt.Fprintf(tw, "total\t%s\t100%%\t\t\n", size.Format(p.LimitBytes))
	tw.Flush()
	for _, wn := range p.Warnings {
		fmt.Fprintln(w, "warning: "+wn)
	}
	return nil
}

// ShellJoin quotes each word for a POSIX shell and joins them with spaces.
func ShellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = ShellQuote(w)
	}
	return strings.Join(q, " ")
}

// ShellQuote quotes s only when a shell would otherwise split or expand it.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_+=:./,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
