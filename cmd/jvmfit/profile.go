package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/profile"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func init() { commands = append(commands, newProfileCmd) }

func newProfileCmd() *cobra.Command {
	var db, out string
	var id int64
	var prod prodFlags
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Write an app's measured profile: from a trial, a running JVM, its metrics or Prometheus",
		Long: `Write the app's measured profile (JSON, version 1) from a trial stored in the
database, or from production: a JVM running on this host (--pid), its
metrics endpoint (--scrape), or a Prometheus server (--prometheus).
Every field names its source (nmt, hsperf, proc, jcmd, micrometer, jmx,
cadvisor, estimated, or unmeasured); the planner uses only the measured
ones. docs/profile.md describes the production sources.

A trial's profile holds: loaded classes, metaspace, class space and code cache used, threads,
direct and mapped buffers, the live set after full GC, the CDS archive's
resident size, the peak native memory no option caps, per-category NMT peaks,
and the JDK, options and limits it was measured under. docs/profile.md
describes every field. ` + "`jvmfit flags --profile FILE`" + ` plans from it.

The trial must have been run with NMT (jvmfit run --nmt, or --profile-out,
which also forces a full GC at the end so that the live set is measured).`,
		Example: `  jvmfit run --app workloads/filecache/app.yaml --memory 512Mi --profile-out filecache.json
  jvmfit profile --db jvmfit.db --trial 12 -o filecache.json
  jvmfit profile --pid 4242 --duration 5m -o orders.json
  jvmfit profile --scrape http://127.0.0.1:8080/actuator/prometheus --duration 10m -o orders.json
  jvmfit profile --prometheus http://prometheus:9090 --selector '{app="orders"}' --range 7d -o orders.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch n := prod.sources(id); {
			case n > 1:
				return usagef("give one source: --trial, --pid, --scrape or --prometheus")
			case n == 1 && id <= 0:
				return prod.run(cmd, out)
			case id <= 0:
				return usagef("give --trial ID (a stored trial), --pid PID (a running JVM), --scrape URL (its metrics) or --prometheus URL --selector '{...}'")
			}
			if _, err := os.Stat(db); err != nil {
				return usagef("--db %s: no such database (give the one the trial was stored in)", db)
			}
			st, err := store.Open(db)
			if err != nil {
				return usagef("--db %s: %v", db, err)
			}
			defer st.Close()
			r, found, err := st.TrialByID(id)
			if err != nil {
				return err
			}
			if !found {
				return usagef("--trial %d: no such trial in %s", id, db)
			}
			p, notes, err := profile.From(r)
			if err != nil {
				return usagef("%v", err)
			}
			return emitProfile(cmd.OutOrStdout(), cmd.ErrOrStderr(), out, p, notes)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&db, "db", "jvmfit.db", "results database the trial is stored in")
	fl.Int64Var(&id, "trial", 0, "the stored trial's id")
	fl.StringVarP(&out, "output", "o", "-", `profile file to write ("-" = stdout)`)
	prod.add(fl)
	cmd.AddCommand(newProfileDiffCmd())
	return cmd
}

// checkProfileOut refuses, before a trial runs, a --profile-out that could
// not be written.
func checkProfileOut(path string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return usagef("--profile-out needs a file name: stdout has the trial's own output")
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("--profile-out %s: no directory %s to write it in", path, filepath.Dir(path))
	}
	return nil
}

// writeRunProfile builds the profile of a trial that `run --profile-out`
// just stored and writes it.
func writeRunProfile(stdout, stderr io.Writer, path string, r *trial.Result) error {
	p, notes, err := profile.From(r)
	if err != nil {
		return fmt.Errorf("no profile written: %v", err)
	}
	return emitProfile(stdout, stderr, path, p, notes)
}

// emitProfile writes p as indented JSON to path ("-" = stdout); notes go to
// stderr.
func emitProfile(stdout, stderr io.Writer, path string, p *plan.Profile, notes []string) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	for _, n := range notes {
		fmt.Fprintln(stderr, "jvmfit: note: "+n)
	}
	if path == "-" || path == "" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("cannot write the profile: %w", err)
	}
	if p.Trial > 0 {
		fmt.Fprintf(stderr, "jvmfit: profile of %s (trial %d) written to %s\n", p.App, p.Trial, path)
	} else {
		fmt.Fprintf(stderr, "jvmfit: profile written to %s\n", path)
	}
	return nil
}
