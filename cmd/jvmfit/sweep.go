package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/store"
)

func init() { commands = append(commands, newSweep) }

func newSweep() *cobra.Command {
	var (
		ef                        experimentFlags
		cpus, rates, memory, jvms string
		soak                      time.Duration
	)
	cmd := &cobra.Command{
		Use:   "sweep (--app app.yaml | --jar app.jar [--get PATH]) --cpus 1,2 --rate 100..1000/100",
		Short: "Run a matrix of trials over CPUs, memory, rate, JVM options and JDKs",
		Long: `sweep runs one trial per cell of the matrix --cpus × --memory × --rate ×
--jvm × --java (rate varying fastest). A cell whose identical trial is
already in --db is taken from there, so an interrupted sweep resumes where
it stopped; --fresh runs every cell again. Axes are lists (0.5,1,2) or
ranges with a step (100..1000/100, 256Mi..1Gi/256Mi).`,
		Example: `  jvmfit sweep --app workloads/filecache/app.yaml --cpus 1,2 --rate 100..500/100 --memory 512Mi
  jvmfit sweep --app app.yaml --memory 256Mi,512Mi --jvm default,jvmfit \
      --java /usr/lib/jvm/java-17-openjdk-amd64/bin/java,/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  jvmfit sweep --jar target/app.jar --get /api/items --rate 50,100,200 --memory 256Mi`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ax experiment.Axes
			var err error
			if ax.CPUs, err = experiment.ParseNumbers("cpus", cpus); err != nil {
				return asUsage(err)
			}
			if ax.Memory, err = experiment.ParseSizes("memory", memory); err != nil {
				return asUsage(err)
			}
			if rates != "" {
				if ax.Rates, err = experiment.ParseNumbers("rate", rates); err != nil {
					return asUsage(err)
				}
			}
			if ax.JVMs = experiment.ParseList(jvms); len(ax.JVMs) == 0 {
				return usagef("--jvm: give at least one mode, e.g. default")
			}
			if soak < 0 {
				return usagef("--soak cannot be negative (0 skips the proof)")
			}
			// --java is an axis here: every JDK is checked when the cells are prepared.
			ax.Javas, ef.java = experiment.ParseList(ef.java), ""
			args := map[string]any{"app": ef.appRef(), "cpus": ax.CPUs, "memory": ax.Memory, "rate": ax.Rates, "jvm": ax.JVMs, "java": ax.Javas, "fresh": ef.fresh, "soak": soak.String()}
			sess, err := ef.open()
			if err != nil {
				return err
			}
			defer sess.close()
			sw := experiment.Sweep{Cells: ax.Cells(sess.Base), SoakFor: soak}
			return runMatrix(cmd, sess, sw, store.KindSweep, args, ef.json, fmt.Sprintf("%d cells", len(sw.Cells)))
		},
	}
	ef.register(cmd)
	fl := cmd.Flags()
	fl.Lookup("java").Usage = "java binaries to compare, comma-separated (default: $JAVA_HOME/bin/java, then PATH)"
	fl.StringVar(&cpus, "cpus", "1", "CPU counts, e.g. 0.5,1,2 or 1..4/1")
	fl.StringVar(&rates, "rate", "", "measured request rates, e.g. 100..1000/100 (default: the descriptor's)")
	fl.StringVar(&memory, "memory", "1Gi", "memory limits, e.g. 512Mi,1Gi or 256Mi..1Gi/256Mi")
	fl.StringVar(&jvms, "jvm", "default", "JVM option modes: default, jvmfit[:goal], runjava, paketo, ubi, set:NAME, quoted options")
	fl.DurationVar(&soak, "soak", 0, "prove the recommendation with a soak this long at its limit, run as recommended (0 = none: it is labelled not proven, with the command that proves it)")
	return cmd
}

// runMatrix checks, records and runs a sweep (or compare), then prints.
func runMatrix(cmd *cobra.Command, sess *session, sw experiment.Sweep, kind string, args any, asJSON bool, what string) error {
	if err := sw.Check(sess.Session); err != nil {
		return asUsage(err)
	}
	if err := sess.begin(kind, args); err != nil {
		return err
	}
	fmt.Fprintln(sess.Progress, what)
	cells, ans, runErr := sw.Conclude(cmd.Context(), sess.Session)
	if runErr != nil && len(cells) == 0 {
		return runErr
	}
	if asJSON {
		if err := printJSON(cmd.OutOrStdout(), report.NewSweepJSON(sess.ID, cells, ans.Rec, runErr)); err != nil {
			return err
		}
		return runErr
	}
	out := cmd.OutOrStdout()
	if err := sess.tables(out); err != nil {
		return err
	}
	printAnswer(out, ans, runErr)
	return runErr
}
