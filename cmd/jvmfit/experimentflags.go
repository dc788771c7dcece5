package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// experimentFlags are the trial settings minmem, sweep and compare share.
type experimentFlags struct {
	app, db, java, optionSets, slo, name string
	profile                              string
	warmup, duration, sweepStale         time.Duration
	vars                                 []string
	nmt, json, keepLogs, fresh           bool
	backend                              backendFlags // backend.go
	img                                  imageFlags
	own                                  ownAppFlags
}

// appRef is the app as the user named it, for the experiment's record.
func (f *experimentFlags) appRef() string {
	switch {
	case f.own.jar != "":
		return f.own.jar
	case f.img.image != "":
		return f.img.image
	}
	return f.app
}

func (f *experimentFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.app, "app", "", "app descriptor (app.yaml, see docs/app.md); or give --jar or --image")
	fl.StringVar(&f.db, "db", "jvmfit.db", "results database (SQLite); created if missing")
	fl.StringVar(&f.name, "experiment", "", "experiment name in the database (default: KIND-APP-TIME)")
	fl.StringVar(&f.java, "java", "", "java binary (default: $JAVA_HOME/bin/java, then PATH)")
	fl.StringVar(&f.optionSets, "option-sets", "", "option-sets file for --jvm set:NAME (default: the descriptor's)")
	fl.StringVar(&f.slo, "slo", "", `SLO that makes a trial OK, e.g. "p99<=500ms,success>=0.999" (default: the descriptor's)`)
	fl.DurationVar(&f.warmup, "warmup", 0, "warm-up length, overriding the scenario's (0 = scenario's own)")
	fl.DurationVar(&f.duration, "duration", 0, "measured phase length, overriding the scenario's (0 = scenario's own)")
	fl.StringArrayVar(&f.vars, "var", nil, "scenario variable k=v (repeatable)")
	fl.StringVar(&f.profile, "profile", "", "measured profile (jvmfit profile, run --profile-out) the jvmfit modes plan with")
	fl.BoolVar(&f.nmt, "nmt", false, "add Native Memory Tracking and record its breakdown (costs ~5-10% memory)")
	fl.BoolVar(&f.json, "json", false, "print JSON on stdout instead of Markdown")
	fl.BoolVar(&f.keepLogs, "keep-logs", false, "keep every trial's app log in DB.logs/ID/ (default: only KO trials' logs)")
	fl.BoolVar(&f.fresh, "fresh", false, "run every trial again even if the database holds an identical one")
	registerSweepStale(fl, &f.sweepStale)
	f.backend.register(cmd)
	f.img.registerExperiment(fl)
	f.own.register(cmd, true)
}

// session is an opened experiment: the Session that runs it and the
// database it keeps it in. The Session owns the experiment's life; this
// only wires flags to it and prints.
type session struct {
	*experiment.Session
	db string
}

// open loads the app and checks it, the JDK and the SLO once, before
// anything is stored; begin then records the experiment, once the command
// has checked everything it can.
func (f *experimentFlags) open() (*session, error) {
	a, err := f.img.experimentApp(f.app, &f.own, f.db, f.java)
	if err != nil {
		return nil, asUsage(err)
	}
	vars, err := scenario.ParseVars(f.vars)
	if err != nil {
		return nil, asUsage(err)
	}
	s := &experiment.Session{App: a, OptionSets: f.optionSets, Name: f.name, Fresh: f.fresh, KeepLogs: f.keepLogs,
		Base: trial.Spec{Java: f.java, Warmup: f.warmup, Duration: f.duration, Vars: vars, SLO: f.slo, NMT: f.nmt, JVM: "default",
			Profile: f.profile, Engine: f.img.engine},
		Progress:  experiment.ProgressWriter(os.Stderr),
		Summarize: report.Summarize, SweepStale: f.sweepStale}
	if f.profile != "" {
		if _, err := plan.LoadProfile(f.profile); err != nil {
			return nil, usagef("--profile: %v", err)
		}
	}
	probe := s.Base
	probe.MemoryBytes, probe.CPUs = 1<<30, 1
	if _, err := s.Check(probe); err != nil {
		return nil, asUsage(err)
	}
	if err := f.backend.apply(s, &f.db); err != nil {
		return nil, err
	}
	return &session{Session: s, db: f.db}, nil
}

// begin opens the database and records a new experiment.
func (s *session) begin(kind string, args any) error {
	st, err := store.Open(s.db)
	if err != nil {
		return err
	}
	s.Store, s.LogRoot = st, s.db+".logs"
	if err := s.Begin(kind, args); err != nil {
		return err
	}
	fmt.Fprintf(s.Progress, "experiment %q (id %d) in %s\n", s.Name, s.ID, s.db)
	return nil
}

func (s *session) close() {
	s.Close()
	if s.Store != nil {
		s.Store.Close()
	}
}

// tables writes the report's seed-style tables for this experiment, read
// back from the database so they match what `jvmfit report` shows.
func (s *session) tables(w io.Writer) error {
	e, err := s.Store.Experiment(strconv.FormatInt(s.ID, 10))
	if err != nil {
		return err
	}
	trials, err := s.Store.Trials(store.Filter{ExperimentID: s.ID, Light: true})
	if err != nil {
		return err
	}
	// No summary here: the command prints its recommendation itself.
	return report.Markdown(w, report.Input{
		Meta:   report.Meta{ID: e.ID, Name: e.Name, Kind: e.Kind, Created: e.Started, Ended: e.Ended},
		Trials: trials,
	})
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
