package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func init() {
	// Every stored trial records the jvmfit that ran it.
	trial.Version = version
	commands = append(commands, newRunCmd)
}

type runFlags struct {
	app, jar, ready, scenario       string
	memory, cpuset, jvm, java, slo  string
	optionSets, db, experiment      string
	profileOut, profile             string
	viaExec                         bool
	cpus, rate                      float64
	warmup, duration, sweepStale    time.Duration
	vars                            []string
	nmt, saturate, noLimits, asJSON bool
	verbose                         bool
	img                             imageFlags
	own                             ownAppFlags
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "One trial under real cgroup limits, with an OK/KO verdict",
		Long: `Run one trial: start the app under a memory limit, CPU quota and cpuset,
time it to its first good answer, drive its scenario, measure it, judge it
against the SLO and store it in the database.

Exit status: 0 OK, 1 KO (or jvmfit failed), 2 bad input, 130 interrupted
(an interrupted trial is not stored).`,
		Example: `  jvmfit run --app workloads/filecache/app.yaml --memory 300Mi --cpus 1
  jvmfit run --app workloads/filecache/app.yaml --memory 200Mi --jvm jvmfit --rate 50 --json
  jvmfit run --jar target/app.jar --get /api/items --rate 100 --memory 256Mi
  jvmfit run --jar app.jar --ready http://127.0.0.1:8080/health --scenario s.yaml --memory 512Mi`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTrial(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.app, "app", "", "app descriptor (app.yaml, see docs/app.md)")
	fl.StringVar(&f.jar, "jar", "", "your app's runnable jar instead of --app: port and readiness come from its framework, as jvmfit init finds them (docs/your-service.md)")
	fl.StringVar(&f.ready, "ready", "", "with --image, or a --jar whose framework has no health endpoint: URL whose first 2xx answer means started")
	fl.StringVar(&f.scenario, "scenario", "", "load scenario (docs/scenario.md); with --app it replaces the descriptor's")
	fl.StringVar(&f.memory, "memory", "", "memory limit, swap forbidden, e.g. 300Mi (required unless --no-limits)")
	fl.Float64Var(&f.cpus, "cpus", 1, "CPU quota in CPUs, fractions allowed; 0 = no quota")
	fl.StringVar(&f.cpuset, "cpuset", "", `CPUs the app may run on, e.g. "0" or "0-1"`)
	fl.StringVar(&f.jvm, "jvm", "default", `JVM options: default | jvmfit[:footprint|balanced|throughput] | runjava | paketo | ubi | set:NAME | "-Xmx... options"`)
	fl.StringVar(&f.java, "java", "", "java binary (default: $JAVA_HOME/bin/java, then PATH)")
	fl.StringVar(&f.optionSets, "option-sets", "", "option-sets file for --jvm set:NAME (default: the descriptor's)")
	fl.Float64Var(&f.rate, "rate", 0, "measured rate in req/s for open phases (default: descriptor's, then scenario's)")
	fl.DurationVar(&f.warmup, "warmup", 0, "warm-up length (default: the scenario's)")
	fl.DurationVar(&f.duration, "duration", 0, "measured phase length (default: the scenario's)")
	fl.StringArrayVar(&f.vars, "var", nil, "scenario variable k=v (repeatable)")
	fl.StringVar(&f.slo, "slo", "", `SLO, e.g. "p99<=200ms,success>=0.999,throughput>=0.98*rate,start<=60s,memory<=300Mi"; working_set<=300Mi judges the working set instead of the cgroup peak (default: the descriptor's, then `+trial.DefaultSLO+`)`)
	fl.BoolVar(&f.nmt, "nmt", false, "add -XX:NativeMemoryTracking=summary; NMT is sampled every 2s (peaks per category) and at the end")
	fl.StringVar(&f.profileOut, "profile-out", "", "write the app's measured profile (JSON, docs/profile.md) from this trial; turns on --nmt and a full GC at the end")
	fl.StringVar(&f.profile, "profile", "", "with --jvm jvmfit: plan with this measured profile (jvmfit profile, --profile-out)")
	fl.BoolVar(&f.viaExec, "via-exec", false, "with --jvm jvmfit: run the app's java command through jvmfit exec, which plans in the trial's cgroup, as in a container")
	fl.BoolVar(&f.saturate, "saturate", false, "after the measured load, probe the maximum throughput (16 workers, 10s)")
	fl.BoolVar(&f.noLimits, "no-limits", false, "run without cgroup limits (a baseline)")
	fl.StringVar(&f.db, "db", "jvmfit.db", "results database (SQLite); created if missing")
	fl.StringVar(&f.experiment, "experiment", "", "experiment name in the database (default: run-APP-TIME)")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as JSON on stdout")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "first print where the trial runs (the lines of jvmfit doctor) on stderr")
	registerSweepStale(fl, &f.sweepStale)
	f.img.register(fl)
	f.own.register(cmd, false)
	return cmd
}

// errKO makes a KO trial exit 1 after its result has been printed.
var errKO = errors.New("KO")

func runTrial(cmd *cobra.Command, f *runFlags) error {
	if f.verbose {
		// Where the trial will run is said before anything can fail on it.
		_ = printDoctor(cmd, cmd.ErrOrStderr())
	}
	a, err := runApp(f)
	if err != nil {
		return asUsage(err)
	}
	spec, err := runSpec(f, a)
	if err != nil {
		return err
	}
	if err := checkProfileOut(f.profileOut); err != nil {
		return err
	}
	// Open the database first: a bad --db must not cost a trial.
	st, err := openRunStore(f.db)
	if err != nil {
		return err
	}
	defer st.Close()

	sess := &experiment.Session{App: a, OptionSets: f.optionSets, Name: f.experiment, Store: st, Base: spec,
		Progress: experiment.ProgressWriter(os.Stderr), SweepStale: f.sweepStale}
	// The app's log goes next to the database, as an experiment's does
	// (docs/experiments.md), never into /tmp, and stays only for a KO.
	sess.LogDir = filepath.Join(f.db+".logs", "run")
	if err := os.MkdirAll(sess.LogDir, 0o700); err != nil {
		return fmt.Errorf("cannot make the log directory: %w", err)
	}
	r, err := experiment.RunOne(cmd.Context(), sess, spec, runArgs(cmd))
	switch {
	case r == nil && cmd.Context().Err() != nil:
		return fmt.Errorf("interrupted: the trial was stopped and not stored")
	case r == nil:
		return err
	case err != nil:
		return fmt.Errorf("the trial ran but could not be stored in %s: %w", f.db, err)
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		if err := printJSON(out, r); err != nil {
			return err
		}
	} else {
		report.TrialText(out, r, f.db)
	}
	if f.profileOut != "" {
		if err := writeRunProfile(out, cmd.ErrOrStderr(), f.profileOut, r); err != nil {
			return err
		}
	}
	if r.Verdict != trial.OK {
		return fmt.Errorf("%w %s", errKO, r.Kind)
	}
	return nil
}

// openRunStore opens the database by the one error rule
// (docs/experiments.md): a full disk or a damaged file is the machine's
// error (exit 1, as from sweep); a --db whose folder is missing is the
// user's to fix (exit 2).
func openRunStore(db string) (*store.Store, error) {
	st, err := store.Open(db)
	if err == nil {
		return st, nil
	}
	if fi, serr := os.Stat(filepath.Dir(db)); serr != nil || !fi.IsDir() {
		return nil, usagef("--db %s: %w", db, err)
	}
	return nil, err
}

// runSpec is the trial the flags ask for, prepared: every input error
// comes out here, before anything starts or is echoed.
func runSpec(f *runFlags, a *app.App) (trial.Spec, error) {
	spec := trial.Spec{
		Java: f.java, JVM: f.jvm, CPUs: f.cpus, CPUSet: f.cpuset, NoLimits: f.noLimits,
		Rate: f.rate, Warmup: f.warmup, Duration: f.duration, SLO: f.slo, NMT: f.nmt || f.profileOut != "", FullGCAtEnd: f.profileOut != "", Saturate: f.saturate,
		Profile: f.profile, Engine: f.img.engine,
	}
	jvmfitMode := jvmopts.ParseMode(f.jvm).Launcher
	if (f.profile != "" || f.viaExec) && !jvmfitMode {
		return spec, usagef("--profile and --via-exec are for --jvm jvmfit[:goal] (the launcher plans); this run is --jvm %s", f.jvm)
	}
	if f.viaExec {
		spec.Launcher = trial.LauncherExec
	}
	var err error
	if f.memory != "" {
		if spec.MemoryBytes, err = size.Parse(f.memory); err != nil {
			return spec, usagef("--memory: %w", err)
		}
	}
	if f.noLimits && (f.memory != "" || f.cpuset != "") {
		return spec, usagef("--no-limits runs without limits: drop --memory and --cpuset")
	}
	if spec.Vars, err = scenario.ParseVars(f.vars); err != nil {
		return spec, asUsage(err)
	}
	if spec, err = trial.Prepare(spec, a, f.optionSets); err != nil {
		return spec, asUsage(err)
	}
	return spec, nil
}

func runApp(f *runFlags) (*app.App, error) {
	src := f.img.source(f.app, f.ready, f.scenario)
	src.Jar, src.Run = f.jar, true
	return f.own.resolve(src, f.db, f.java)
}

// runArgs keeps the flags the user gave, for the experiment's record.
func runArgs(cmd *cobra.Command) map[string]string {
	args := map[string]string{}
	cmd.Flags().Visit(func(f *pflag.Flag) { args[f.Name] = f.Value.String() })
	return args
}
