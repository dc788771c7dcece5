package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// experimentFlags are the trial settings minmem, sweep and compare share.
type experimentFlags struct {
	app, db, java, optionSets, slo, name string
	warmup, duration                     time.Duration
	vars                                 []string
	nmt, json, keepLogs                  bool
}

func (f *experimentFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.app, "app", "", "app descriptor (app.yaml, see docs/app.md); required")
	fl.StringVar(&f.db, "db", "jvmfit.db", "results database (SQLite); created if missing")
	fl.StringVar(&f.name, "experiment", "", "experiment name in the database (default: KIND-APP-TIME)")
	fl.StringVar(&f.java, "java", "", "java binary (default: $JAVA_HOME/bin/java, then PATH)")
	fl.StringVar(&f.optionSets, "option-sets", "", "option-sets file for --jvm set:NAME (default: the descriptor's)")
	fl.StringVar(&f.slo, "slo", "", `SLO that makes a trial OK, e.g. "p99<=500ms,success>=0.999" (default: the descriptor's)`)
	fl.DurationVar(&f.warmup, "warmup", 0, "warm-up length, overriding the scenario's (0 = scenario's own)")
	fl.DurationVar(&f.duration, "duration", 0, "measured phase length, overriding the scenario's (0 = scenario's own)")
	fl.StringArrayVar(&f.vars, "var", nil, "scenario variable k=v (repeatable)")
	fl.BoolVar(&f.nmt, "nmt", false, "add Native Memory Tracking and record its breakdown (costs ~5-10% memory)")
	fl.BoolVar(&f.json, "json", false, "print JSON on stdout instead of Markdown")
	fl.BoolVar(&f.keepLogs, "keep-logs", false, "keep every trial's app log in DB.logs/ID/ (default: only KO trials' logs)")
}

// session is an opened experiment: the app, the database and the trial
// functions bound to them.
type session struct {
	app     *app.App
	store   *store.Store
	base    trial.Spec
	expID   int64
	prepare experiment.PrepareFunc
	run     experiment.RunFunc
	log     io.Writer
	name    string // experiment name ("" = generated)
	db      string
	// deps.LogDir is set by begin: app logs go next to the database, not
	// into /tmp, and OK trials' logs are removed unless keepLogs.
	deps     trial.Deps
	keepLogs bool
}

// open loads the app and binds the trial functions; begin then records the
// experiment, once the command has checked everything it can.
func (f *experimentFlags) open() (*session, error) {
	if f.app == "" {
		return nil, usagef("--app is required: give the service's app.yaml (see docs/app.md)")
	}
	a, err := app.Load(f.app)
	if err != nil {
		return nil, asUsage(err)
	}
	vars := map[string]string{}
	for _, kv := range f.vars {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--var %q: write name=value", kv)
		}
		vars[k] = v
	}
	if len(vars) == 0 {
		vars = nil
	}
	base := trial.Spec{Java: f.java, Warmup: f.warmup, Duration: f.duration, Vars: vars, SLO: f.slo, NMT: f.nmt, JVM: "default"}
	optionSets := f.optionSets
	prepare := func(s trial.Spec) (trial.Spec, error) {
		return trial.Prepare(s, a, optionSets)
	}
	// Check the app, JDK and SLO once before anything is stored.
	probe := base
	probe.MemoryBytes, probe.CPUs = 1<<30, 1
	if _, err := prepare(probe); err != nil {
		return nil, asUsage(err)
	}
	s := &session{app: a, base: base, prepare: prepare, log: os.Stderr, name: f.name, db: f.db,
		deps: trial.DefaultDeps(), keepLogs: f.keepLogs}
	s.run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		r, err := trial.Run(ctx, spec, a, s.deps)
		if err == nil && r != nil && r.Verdict == trial.OK && r.LogFile != "" && !s.keepLogs {
			// An OK trial's log says nothing a reader needs; a KO's says why.
			os.Remove(r.LogFile)
			r.LogFile = ""
		}
		return r, err
	}
	return s, nil
}

// begin opens the database and records a new experiment.
func (s *session) begin(kind string, args any) error {
	st, err := store.Open(s.db)
	if err != nil {
		return err
	}
	if s.name == "" {
		s.name = fmt.Sprintf("%s-%s-%s", kind, s.app.Name, time.Now().Format("20060102-150405"))
	}
	if s.expID, err = st.NewExperiment(s.name, kind, args); err != nil {
		st.Close()
		return err
	}
	s.store = st
	s.deps.LogDir = s.logDir()
	if err := os.MkdirAll(s.deps.LogDir, 0o755); err != nil {
		return fmt.Errorf("cannot make the log directory: %w", err)
	}
	fmt.Fprintf(s.log, "experiment %q (id %d) in %s\n", s.name, s.expID, s.db)
	return nil
}

// logDir holds this experiment's app logs: DB.logs/ID/.
func (s *session) logDir() string {
	return filepath.Join(s.db+".logs", strconv.FormatInt(s.expID, 10))
}

// conclude stores the recommendation on the experiment, so reports made
// later show it; only a finished experiment has a final answer.
func (s *session) conclude(rec *experiment.Recommendation, details string, runErr error) {
	if rec == nil || runErr != nil || s.store == nil {
		return
	}
	if err := s.store.SetSummary(s.expID, rec.Summary(details)); err != nil {
		fmt.Fprintf(s.log, "warning: the recommendation was not stored: %v\n", err)
	}
}

// ended marks the experiment complete; an interrupted one stays open, so
// reports say it was cut short.
func (s *session) ended(runErr error) {
	if runErr == nil && s.store != nil {
		_ = s.store.EndExperiment(s.expID)
	}
}

func (s *session) close() {
	if s.store != nil {
		s.store.Close()
		// Leave no empty directories behind when every trial was OK.
		if os.Remove(s.logDir()) == nil {
			os.Remove(s.db + ".logs")
		}
	}
}

// optionsAt gives the options a mode resolves to at the recommended limit,
// the launcher's plan for jvmfit modes.
func (s *session) optionsAt(jvm, java string, mem int64, cpus float64) ([]string, error) {
	sp := s.base
	sp.JVM, sp.Java, sp.MemoryBytes, sp.CPUs, sp.NMT = jvm, java, mem, cpus, false
	sp, err := s.prepare(sp)
	if err != nil {
		return nil, err
	}
	return sp.JVMOptions, nil
}

// tables writes the report's seed-style tables for this experiment, read
// back from the database so they match what `jvmfit report` shows.
func (s *session) tables(w io.Writer) error {
	e, err := s.store.Experiment(strconv.FormatInt(s.expID, 10))
	if err != nil {
		return err
	}
	trials, err := s.store.Trials(store.Filter{ExperimentID: s.expID, Light: true})
	if err != nil {
		return err
	}
	return report.Markdown(w, report.Input{
		Meta:   report.Meta{ID: e.ID, Name: e.Name, Kind: e.Kind, Created: e.Created, Ended: e.Ended},
		Trials: trials,
	})
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
