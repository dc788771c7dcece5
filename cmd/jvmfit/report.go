package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func init() { commands = append(commands, newReport) }

// reportFiles is what `-o DIR` writes: everything, in one place.
var reportFiles = []struct{ name, format string }{
	{"index.html", "html"}, {"report.md", "md"}, {"trials.csv", "csv"}, {"trials.json", "json"},
}

const reportLong = `report reads experiments from the database and renders them. -e takes
one or more (comma-separated) ids, names or name prefixes ("demo" is every
experiment whose name starts with demo); --all takes every one. Several
experiments make one report: an overview, then a section each.

  md    the seeds' tables (memory limit -> OK/KO, rate sweep with its knee,
        option sets side by side) and a list of all trials
  html  one self-contained page with the same tables and charts (works offline)
  csv   one row per trial, flat columns
  json  the array of stored results

-o FILE writes one format (taken from --format, else from the extension);
-o DIR (an existing directory, or a path ending in /) writes index.html,
report.md, trials.csv and trials.json into it. Without -o, output goes to
stdout.`

func newReport() *cobra.Command {
	var db, expRef, format, out string
	var list, all bool
	cmd := &cobra.Command{
		Use:   "report [--db jvmfit.db] [-e NAME|ID|PREFIX,...|latest | --all] [--format md|html|csv|json] [-o FILE|DIR]",
		Short: "Markdown, offline HTML, CSV or JSON from the results database",
		Long:  reportLong,
		Example: `  jvmfit report                                   # latest experiment, Markdown
  jvmfit report --experiment minmem-filecache -o report.html
  jvmfit report --experiment 3 -o demo-report/
  jvmfit report -e demo -o demo-report/           # demo-minmem and demo-sweep in one page
  jvmfit report --all -o everything.html
  jvmfit report --list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "" && !validFormat(format) {
				return usagef("--format %q: use md, html, csv or json", format)
			}
			if _, err := os.Stat(db); err != nil {
				return usagef("no database at %s: run jvmfit run, minmem, sweep or compare first, or give --db PATH", db)
			}
			st, err := store.Open(db)
			if err != nil {
				return asUsage(err)
			}
			defer st.Close()
			w := cmd.OutOrStdout()
			if list {
				return listExperiments(w, st)
			}
			es, err := selectExperiments(st, db, expRef, all, cmd.Flags().Changed("experiment"))
			if err != nil {
				return err
			}
			in, err := loadBook(st, es)
			if err != nil {
				return err
			}
			return writeBook(cmd, w, in, out, format)
		},
	}
	f := cmd.Flags()
	f.StringVar(&db, "db", "jvmfit.db", "results database")
	f.StringVarP(&expRef, "experiment", "e", "latest", "experiments: names (latest of that name), ids, name prefixes or latest, comma-separated")
	f.BoolVar(&all, "all", false, "every experiment in the database, in one report")
	f.StringVarP(&format, "format", "f", "", "md, html, csv or json (default md, or from -o's extension)")
	f.StringVarP(&out, "output", "o", "", "write to FILE, or all formats into DIR")
	f.BoolVar(&list, "list", false, "list the experiments in the database and exit")
	return cmd
}

// selectExperiments resolves -e (or --all) to the experiments to report.
func selectExperiments(st *store.Store, db, expRef string, all, expGiven bool) ([]store.Experiment, error) {
	refs := strings.Split(expRef, ",")
	for _, r := range refs {
		if strings.TrimSpace(r) == "" {
			return nil, usagef("--experiment %q has an empty item: write ids or names separated by commas, e.g. 3,4 or demo", expRef)
		}
	}
	if all {
		if expGiven {
			return nil, usagef("--all and --experiment both choose experiments: give one of them")
		}
		es, err := st.Experiments()
		if err != nil {
			return nil, err
		}
		if len(es) == 0 {
			return nil, usagef("no experiments in %s yet: run jvmfit minmem, sweep or compare first", db)
		}
		return es, nil
	}
	es, err := st.Select(refs)
	if errors.Is(err, store.ErrNotFound) {
		return nil, usagef("%v: see 'jvmfit report --list'", err)
	}
	return es, err
}

// loadBook reads the experiments' full trials, series included: the HTML
// charts memory and heap over time.
func loadBook(st *store.Store, es []store.Experiment) (book, error) {
	b := book{what: fmt.Sprintf("experiment #%d %s", es[0].ID, es[0].Name)}
	if len(es) > 1 {
		b.what = fmt.Sprintf("%d experiments", len(es))
	}
	for _, e := range es {
		ts, err := st.Trials(store.Filter{ExperimentID: e.ID})
		if err != nil {
			return b, err
		}
		b.ins = append(b.ins, report.Input{Meta: report.MetaOf(e), Trials: ts})
		b.trials = append(b.trials, ts...)
	}
	return b, nil
}

// writeBook writes the report to stdout, to one file or into a directory.
func writeBook(cmd *cobra.Command, w io.Writer, in book, out, format string) error {
	if out == "" {
		if format == "" {
			format = "md"
		}
		if format == "html" && isCharDevice(os.Stdout) {
			return usagef("--format html is a 1 MB page: give -o report.html (or redirect stdout)")
		}
		return render(w, format, in)
	}
	if isDirTarget(out) {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", out, err)
		}
		for _, f := range reportFiles {
			if err := writeReport(filepath.Join(out, f.name), f.format, in); err != nil {
				return err
			}
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s/{index.html,report.md,trials.csv,trials.json}: %s, %d trials\n",
			strings.TrimSuffix(out, "/"), in.what, len(in.trials))
		return nil
	}
	if format == "" {
		if format = formatOf(out); format == "" {
			return usagef("-o %s: cannot tell the format from the extension; give --format md|html|csv|json", out)
		}
	}
	if err := writeReport(out, format, in); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %s, %d trials\n", out, in.what, len(in.trials))
	return nil
}

func validFormat(f string) bool {
	switch f {
	case "md", "html", "csv", "json":
		return true
	}
	return false
}

func formatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return "md"
	case ".html", ".htm":
		return "html"
	case ".csv":
		return "csv"
	case ".json":
		return "json"
	}
	return ""
}

func isDirTarget(out string) bool {
	if strings.HasSuffix(out, "/") {
		return true
	}
	st, err := os.Stat(out)
	return err == nil && st.IsDir()
}

// book is what one report covers: one experiment or several.
type book struct {
	ins    []report.Input
	trials []*trial.Result // all of them, in experiment order
	what   string          // "experiment #3 demo-minmem" or "2 experiments"
}

func render(w io.Writer, format string, b book) error {
	switch format {
	case "html":
		return report.HTMLAll(w, b.ins, version)
	case "csv":
		return report.CSV(w, b.trials)
	case "json":
		return report.JSON(w, b.trials)
	}
	return report.MarkdownAll(w, b.ins)
}

// writeReport renders in memory first, so a failure never leaves half a
// file where a good report used to be.
func writeReport(path, format string, in book) error {
	var buf bytes.Buffer
	if err := render(&buf, format, in); err != nil {
		return err
	}
	return replaceFile(path, buf.Bytes(), 0o644)
}

func listExperiments(w io.Writer, st *store.Store) error {
	es, err := st.Experiments()
	if err != nil {
		return err
	}
	if len(es) == 0 {
		fmt.Fprintf(w, "no experiments in %s yet\n", st.Path())
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tTRIALS\tOK\tSTARTED\tENDED")
	for _, e := range es {
		ended := "-"
		if !e.Ended.IsZero() {
			ended = e.Ended.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%s\t%s\n", e.ID, e.Name, e.Kind, e.Trials, e.OK,
			e.Started.Local().Format("2006-01-02 15:04"), ended)
	}
	return tw.Flush()
}

func isCharDevice(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
