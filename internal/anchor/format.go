package anchor

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Write prints the options in one of jvmfit flags' formats (plan.Formats).
func (o Options) Write(w io.Writer, format string) error {
	return plan.WriteOptions(w, format, plan.Emitted{Options: o.Args, Env: o.Env, LimitBytes: o.LimitBytes, CPUs: o.CPUs}, o)
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
