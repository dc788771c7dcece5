package anchor

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Write prints the options in one of jvmfit flags' formats (plan.Formats).
func (o Options) Write(w io.Writer, format string) error {
	line := plan.ShellJoin(o.Args)
	switch format {
	case "", "shell":
		_, err := fmt.Fprintln(w, line)
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(o)
	case "java-tool-options":
		fmt.Fprintf(w, "export JAVA_TOOL_OPTIONS=%s\n", plan.ShellQuote(line))
		for _, k := range o.envKeys() {
			fmt.Fprintf(w, "export %s=%s\n", k, plan.ShellQuote(o.Env[k]))
		}
		return nil
	case "dockerfile":
		fmt.Fprintf(w, "ENV JAVA_TOOL_OPTIONS=%q\n", line)
		for _, k := range o.envKeys() {
			fmt.Fprintf(w, "ENV %s=%q\n", k, o.Env[k])
		}
		return nil
	case "k8s":
		fmt.Fprintf(w, "resources:\n  limits:\n    memory: %s\n    cpu: %q\nenv:\n", size.Format(o.LimitBytes), strings.TrimSuffix(fmt.Sprintf("%.3g", o.CPUs), ".0"))
		fmt.Fprintf(w, "  - name: JAVA_TOOL_OPTIONS\n    value: %q\n", line)
		for _, k := range o.envKeys() {
			fmt.Fprintf(w, "  - name: %s\n    value: %q\n", k, o.Env[k])
		}
		return nil
	}
	return fmt.Errorf("unknown format %q: use %s", format, strings.Join(plan.Formats, ", "))
}

func (o Options) envKeys() []string {
	keys := make([]string, 0, len(o.Env))
	for k := range o.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Explain prints every option the style gives with its reason, the
// regions a calculator sized, and the style's warnings.
func (o Options) Explain(w io.Writer) error {
	fmt.Fprintf(w, "style %s: limit %s, %g CPUs, JDK %d (docs/anchors.md cites its source)\n\n", o.Style, size.Format(o.LimitBytes), o.CPUs, o.JDK)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPTION\tREASON")
	for _, r := range o.Why {
		fmt.Fprintf(tw, "%s\t%s\n", r.Option, r.Why)
	}
	if len(o.Why) == 0 {
		fmt.Fprintln(tw, "(none)\tthe JDK's own ergonomics")
	}
	tw.Flush()
	if len(o.Regions) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "REGION\tSIZE\t")
		for _, r := range o.Regions {
			fmt.Fprintf(tw, "%s\t%s\t  %s\n", r.Name, size.Format(r.Bytes), r.Why)
		}
		tw.Flush()
	}
	for _, wn := range o.Warnings {
		fmt.Fprintln(w, "warning: "+wn)
	}
	return nil
}
