package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/experiment"
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
	warmup, duration                time.Duration
	vars                            []string
	nmt, saturate, noLimits, asJSON bool
	verbose                         bool
	img                             imageFlags
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
  jvmfit run --jar app.jar --ready http://127.0.0.1:8080/health --scenario s.yaml --memory 512Mi`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTrial(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.app, "app", "", "app descriptor (app.yaml, see docs/app.md)")
	fl.StringVar(&f.jar, "jar", "", "a jar to run without a descriptor (with --ready, optional --scenario)")
	fl.StringVar(&f.ready, "ready", "", "with --jar: URL whose first 2xx answer means started")
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
	fl.StringVar(&f.profileOut, "profile-out", "", "write the app's measured profile (JSON, docs/launcher.md) from this trial; turns on --nmt and a full GC at the end")
	fl.StringVar(&f.profile, "profile", "", "with --jvm jvmfit: plan with this measured profile (jvmfit profile, --profile-out)")
	fl.BoolVar(&f.viaExec, "via-exec", false, "with --jvm jvmfit: run the app's java command through jvmfit exec, which plans in the trial's cgroup, as in a container")
	fl.BoolVar(&f.saturate, "saturate", false, "after the measured load, probe the maximum throughput (16 workers, 10s)")
	fl.BoolVar(&f.noLimits, "no-limits", false, "run without cgroup limits (a baseline)")
	fl.StringVar(&f.db, "db", "jvmfit.db", "results database (SQLite); created if missing")
	fl.StringVar(&f.experiment, "experiment", "", "experiment name in the database (default: run-APP-TIME)")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as JSON on stdout")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "first print where the trial runs (the lines of jvmfit doctor) on stderr")
	f.img.register(fl)
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
	st, err := store.Open(f.db)
	if err != nil {
		// The one error rule (docs/experiments.md): a full disk or a damaged
		// file is the machine's error (exit 1, as from sweep); a --db whose
		// folder is missing is the user's to fix (exit 2).
		if fi, serr := os.Stat(filepath.Dir(f.db)); serr != nil || !fi.IsDir() {
			return usagef("--db %s: %w", f.db, err)
		}
		return err
	}
	defer st.Close()

	deps := trial.DefaultDeps().WithProgress(experiment.ProgressWriter(os.Stderr))
	if f.profileOut != "" {
		deps.Prober = trial.ProfileProber()
	}
	// The app's log goes next to the database, as an experiment's does
	// (docs/experiments.md), never into /tmp, and stays only for a KO.
	deps.LogDir = filepath.Join(f.db+".logs", "run")
	if err := os.MkdirAll(deps.LogDir, 0o755); err != nil {
		return fmt.Errorf("cannot make the log directory: %w", err)
	}
	r, err := trial.Run(cmd.Context(), spec, a, deps)
	if r != nil && r.Verdict == trial.OK && r.LogFile != "" {
		os.Remove(r.LogFile)
		r.LogFile = ""
	}
	// Empty directories go: a run that passed leaves nothing behind.
	if os.Remove(deps.LogDir) == nil {
		os.Remove(filepath.Dir(deps.LogDir))
	}
	if err != nil {
		if cmd.Context().Err() != nil {
			return fmt.Errorf("interrupted: the trial was stopped and not stored")
		}
		return err
	}
	if err := storeRun(cmd, st, f, r); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		printTrial(out, r, f.db)
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

// runSpec is the trial the flags ask for, prepared: every input error
// comes out here, before anything starts or is echoed.
func runSpec(f *runFlags, a *app.App) (trial.Spec, error) {
	spec := trial.Spec{
		Java: f.java, JVM: f.jvm, CPUs: f.cpus, CPUSet: f.cpuset, NoLimits: f.noLimits,
		Rate: f.rate, Warmup: f.warmup, Duration: f.duration, SLO: f.slo, NMT: f.nmt || f.profileOut != "", Saturate: f.saturate,
		Profile: f.profile, Engine: f.img.engine,
	}
	jvmfitMode := f.jvm == "jvmfit" || strings.HasPrefix(f.jvm, "jvmfit:")
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
	if spec.Vars, err = runVars(f.vars); err != nil {
		return spec, asUsage(err)
	}
	if spec, err = trial.Prepare(spec, a, f.optionSets); err != nil {
		return spec, asUsage(err)
	}
	return spec, nil
}

// storeRun stores the trial under its own experiment.
func storeRun(cmd *cobra.Command, st *store.Store, f *runFlags, r *trial.Result) error {
	name := f.experiment
	if name == "" {
		name = fmt.Sprintf("run-%s-%s", r.Spec.AppName, r.StartedAt.Format("20060102-150405"))
	}
	expID, err := st.NewExperiment(name, "run", runArgs(cmd))
	if err == nil {
		r.Experiment = name
		r.ID, err = st.SaveTrial(expID, r)
		_ = st.EndExperiment(expID)
	}
	if err != nil {
		return fmt.Errorf("the trial ran but could not be stored in %s: %w", f.db, err)
	}
	return nil
}

func runApp(f *runFlags) (*app.App, error) {
	a, err := runAppOf(f)
	if err != nil {
		return nil, err
	}
	return a, f.img.check(a)
}

func runAppOf(f *runFlags) (*app.App, error) {
	switch {
	case f.app != "" && f.jar != "":
		return nil, errors.New("give --app or --jar, not both")
	case f.img.image != "" && (f.app != "" || f.jar != ""):
		return nil, errors.New("give one of --app, --jar or --image")
	case f.img.image != "":
		return f.img.fromImage(f.ready, f.scenario)
	case f.app != "":
		if f.ready != "" {
			return nil, errors.New("--ready goes with --jar or --image; a descriptor has its own ready")
		}
		a, err := app.Load(f.app)
		if err != nil || f.scenario == "" {
			return a, err
		}
		// --scenario picks another load for the same app (the descriptor's
		// is its default).
		if a.Scenario, err = filepath.Abs(f.scenario); err != nil {
			return nil, fmt.Errorf("--scenario: %w", err)
		}
		if _, err := os.Stat(a.Scenario); err != nil {
			return nil, fmt.Errorf("--scenario: %s does not exist", f.scenario)
		}
		return a, nil
	case f.jar != "":
		return app.FromJar(f.jar, f.ready, f.scenario)
	}
	return nil, errors.New("give --app app.yaml, --jar app.jar --ready URL, or --image NAME --ready URL [--scenario s.yaml]")
}

func runVars(kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	vars := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--var %q: write name=value", kv)
		}
		vars[k] = v
	}
	return vars, nil
}

// printTrial writes the summary line, then the details a person checks
// next: why it failed, what the JVM was given, where memory went.
func printTrial(w io.Writer, r *trial.Result, db string) {
	fmt.Fprintln(w, r.Spec.AppName+": "+r.Line())
	for _, f := range r.Failed {
		fmt.Fprintln(w, "  failed:   "+f)
	}
	opts := strings.Join(r.Spec.JVMOptions, " ")
	switch {
	case r.Spec.Launcher == trial.LauncherExec:
		opts = strings.TrimSpace("jvmfit exec's plan in the trial's cgroup, then " + opts)
		if r.Spec.Profile != "" {
			opts += " (profile " + r.Spec.Profile + ")"
		}
	case opts == "":
		opts = "(none: the JDK's own ergonomics)"
	}
	fmt.Fprintf(w, "  jvm:      %s, JDK %d: %s%s\n", r.Spec.JVM, r.Spec.JDKVersion, opts, envText(r.Spec.JVMEnv))
	for _, f := range r.Findings {
		fmt.Fprintln(w, "  finding:  "+f)
	}
	if l := r.Load; l != nil && l.Requests > 0 {
		fmt.Fprintf(w, "  load:     %d requests, %.1f req/s (target %g), success %.2f%%, p50 %s, p99 %s, p99.9 %s, max %s\n",
			l.Requests, l.Throughput, l.TargetRate, l.Success*100,
			l.Latencies.P50.Round(time.Microsecond), l.Latencies.P99.Round(time.Microsecond),
			l.Latencies.P999.Round(time.Microsecond), l.Latencies.Max.Round(time.Microsecond))
	}
	if l := r.Load; l != nil && len(l.Errors) > 0 {
		errs := l.Errors
		if len(errs) > 3 {
			errs = errs[:3]
		}
		fmt.Fprintf(w, "  errors:   %s\n", strings.Join(errs, "; "))
	}
	if s := r.Saturation; s != nil {
		fmt.Fprintf(w, "  saturate: %.1f req/s, p99 %s\n", s.Throughput, s.Latencies.P99.Round(time.Microsecond))
	}
	sm := r.Summary
	fmt.Fprintf(w, "  memory:   cgroup peak %s, working set peak %s, RSS peak %s, heap used/committed peak %s/%s, metaspace %s\n",
		size.Format(r.MemoryPeakBytes), size.Format(r.WorkingSetPeakBytes), size.Format(sm.RSSPeak), size.Format(sm.HeapUsedPeak),
		size.Format(sm.HeapCommPeak), size.Format(sm.MetaspacePeak))
	if sm.GCCount > 0 {
		fmt.Fprintf(w, "  gc:       %d collections, %s (%.1f%% of the run), live set avg/peak %s/%s\n",
			sm.GCCount, sm.GCTime.Round(time.Millisecond), sm.GCShare*100, size.Format(sm.LiveAvg), size.Format(sm.LivePeak))
	}
	fmt.Fprintf(w, "  process:  %d threads, %d fds, CPU %s, throttled %s\n",
		sm.ThreadsPeak, sm.FDsPeak, sm.CPUTime.Round(time.Millisecond), sm.Throttled.Round(time.Millisecond))
	if len(r.NMT) > 0 {
		fmt.Fprintf(w, "  nmt:      %s\n", nmtLine(r.NMT))
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "  note:     "+n)
	}
	if r.OutputTail != "" {
		fmt.Fprintln(w, "  output (last lines):")
		for _, l := range strings.Split(r.OutputTail, "\n") {
			fmt.Fprintln(w, "    | "+l)
		}
	}
	if r.LogFile != "" {
		fmt.Fprintln(w, "  log:      "+r.LogFile)
	}
	fmt.Fprintf(w, "  stored:   trial %d, experiment %q in %s\n", r.ID, r.Experiment, db)
}

// envText is the mode's environment, as " (env K=V ...)".
func envText(env map[string]string) string {
	if len(env) == 0 {
		return ""
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + env[k]
	}
	return " (env " + strings.Join(keys, " ") + ")"
}

// nmtLine lists the largest committed categories first.
func nmtLine(m map[string]trial.NMT) string {
	type kv struct {
		k string
		v int64
	}
	var all []kv
	for k, v := range m {
		if k != "Total" && v.Committed > 0 {
			all = append(all, kv{k, v.Committed})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
	var parts []string
	if t, ok := m["Total"]; ok {
		parts = append(parts, "total "+size.Format(t.Committed))
	}
	for i, e := range all {
		if i == 6 {
			break
		}
		parts = append(parts, e.k+" "+size.Format(e.v))
	}
	return strings.Join(parts, ", ")
}

// runArgs keeps the flags the user gave, for the experiment's record.
func runArgs(cmd *cobra.Command) map[string]string {
	args := map[string]string{}
	cmd.Flags().Visit(func(f *pflag.Flag) { args[f.Name] = f.Value.String() })
	return args
}
