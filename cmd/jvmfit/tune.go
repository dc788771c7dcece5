package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

func init() { commands = append(commands, newTune) }

// tuneFlags are tune's own flags, on top of the experiment flags.
type tuneFlags struct {
	ef              experimentFlags
	cpus, goal, top string
	rate            float64
	budget          int
	soak            time.Duration
}

func newTune() *cobra.Command {
	var f tuneFlags
	cmd := &cobra.Command{
		Use:   "tune --app app.yaml --cpus N [--goal footprint|balanced|throughput] [--budget TRIALS]",
		Short: "Search the memory limit and the JVM options together for the smallest footprint that holds the SLO",
		Long: `tune measures the app at a generous limit (--generous) with the JDK's
defaults, generates candidate option sets from that profile and --goal
(GC, C1 or tiered, heap from the live set, metaspace, code cache, stacks,
free ratios, CDS and on JDK 25 an AOT cache), bisects the limit of the most
promising ones on an 8 MiB grid while dropping the dominated and the worse
half after each round, and proves the chosen point with a --soak. Every
trial counts in --budget (the profile, training runs, the search and the
soak); one is always kept for the soak. Trials are stored in --db as they
end, and a rerun reuses the stored ones, so an interrupted tune resumes.
See docs/tune.md.`,
		Example: `  jvmfit tune --app workloads/filecache/app.yaml --cpus 1 --goal footprint
  jvmfit tune --app app.yaml --cpus 2 --rate 200 --budget 24 --soak 2m --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("tune takes no arguments (got %q): give the app with --app app.yaml", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	f.ef.register(cmd)
	d := experiment.DefaultTune
	fl := cmd.Flags()
	fl.StringVar(&f.cpus, "cpus", "", "the CPU limit to tune for, e.g. 1 or 0.5; required")
	fl.Float64Var(&f.rate, "rate", 0, "measured request rate (0 = the descriptor's or scenario's)")
	fl.StringVar(&f.goal, "goal", d.Goal, "footprint (the smallest limit that holds the SLO), balanced or throughput (a weighted cost of memory, p99, start time and throttling)")
	fl.IntVar(&f.budget, "budget", d.Budget, "trials in all: the profile, training runs, the search and the soak")
	fl.DurationVar(&f.soak, "soak", d.Soak, "measured length of the proof at the chosen point (0 = no proof: the answer is then not proven)")
	fl.StringVar(&f.top, "generous", size.Format(d.Generous), "the profile trial's limit and the top of the search")
	return cmd
}

func (f *tuneFlags) run(cmd *cobra.Command) error {
	cfg, err := tuneConfig(f.cpus, f.goal, f.top, f.rate, f.budget, f.soak)
	if err != nil {
		return err
	}
	sess, err := f.ef.open()
	if err != nil {
		return err
	}
	defer sess.close()
	sess.Base.Rate = f.rate
	probe := sess.Base
	probe.CPUs, probe.MemoryBytes = cfg.CPUs, cfg.Generous
	if probe, err = sess.Check(probe); err != nil {
		return asUsage(err)
	}
	cfg.JDK = probe.JDKVersion
	if f.ef.profile != "" {
		// The search trials do not plan through the Session, so the
		// profile goes to tune's planner instead of the trials' spec.
		if cfg.Profile, err = plan.LoadProfile(f.ef.profile); err != nil {
			return usagef("--profile: %v", err)
		}
		sess.Base.Profile = ""
		if err := asUsage(cfg.Validate()); err != nil {
			return err
		}
	}
	cfg.ArchiveDir = tuneDir(f.ef.db, sess.App.Name, cfg)
	j := jdk.JDK{Version: cfg.JDK}
	if ji, err := jdk.Inspect(probe.Java); err == nil {
		j = ji // the update decides options such as TrimNativeHeapInterval, as in the soak's exec
	}
	cfg.Planner = experiment.LauncherPlannerFor(j, cfg.Goal)
	args := map[string]any{"app": f.ef.app, "cpus": cfg.CPUs, "goal": cfg.Goal, "budget": cfg.Budget, "rate": f.rate,
		"soak": f.soak.String(), "generous": cfg.Generous, "profile": f.ef.profile}
	if err := sess.begin("tune", args); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.ArchiveDir, 0o755); err != nil {
		return fmt.Errorf("cannot make the directory for archives and the profile: %w", err)
	}
	trials := &experiment.TuneSession{Session: sess.Session, Planner: cfg.Planner, TrainingGrace: tuneTrainingGrace,
		Goal: cfg.Goal, ProfileDir: cfg.ArchiveDir}
	// Progress counts trials against the budget: its ETA is an upper
	// bound, as tune may stop before the budget is spent.
	sess.Expect(cfg.Budget)
	res, runErr := experiment.Tune(cmd.Context(), cfg, trials)
	if res == nil {
		return runErr
	}
	given := f.ef.profile
	if res.Profile != cfg.Profile {
		given = "" // the answer's profile was measured under the chosen options
	}
	profileFile, err := writeTuneProfile(cfg.ArchiveDir, given, res.Profile)
	if err != nil {
		fmt.Fprintf(sess.Progress, "warning: %v\n", err)
	}
	if runErr == nil {
		sum := res.Summary(profileFile)
		if err := sess.EndWith(&sum); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if f.ef.json {
		if err := printJSON(out, experiment.NewTuneJSON(res, profileFile)); err != nil {
			return err
		}
	} else {
		fmt.Fprint(out, res.Markdown(profileFile))
	}
	return runErr
}

// tuneTrainingGrace is how long a training run may take to exit: the JVM
// writes its CDS archive or AOT cache then (filecache's 33 MB archive took
// 3.3 s on a loaded 2-core machine, past the trials' usual 3 s grace).
const tuneTrainingGrace = time.Minute

// tuneConfig checks the flags before anything is opened or stored.
func tuneConfig(cpus, goal, generous string, rate float64, budget int, soak time.Duration) (experiment.TuneConfig, error) {
	cfg := experiment.DefaultTune
	if cpus == "" {
		return cfg, usagef("--cpus is required: give the CPU limit to tune for, e.g. --cpus 1")
	}
	c, err := strconv.ParseFloat(cpus, 64)
	if err != nil || c <= 0 {
		return cfg, usagef("--cpus %q: give a positive number of CPUs, e.g. 1 or 0.5", cpus)
	}
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return cfg, usagef("--goal: %v", err)
	}
	top, err := size.Parse(generous)
	if err != nil {
		return cfg, usagef("--generous: %v", err)
	}
	if rate < 0 {
		return cfg, usagef("--rate cannot be negative")
	}
	cfg.CPUs, cfg.Goal, cfg.Budget, cfg.Soak, cfg.Generous = c, g, budget, soak, top
	return cfg, asUsage(cfg.Validate())
}

// tuneDir holds the CDS archives, AOT caches and profiles of one app at
// one CPU count and goal, next to the database. It does not depend on the
// experiment, so that a rerun's candidates name the same archives and its
// trials have the same keys as the stored ones.
func tuneDir(db, app string, cfg experiment.TuneConfig) string {
	return filepath.Join(db+".tune", fmt.Sprintf("%s-%gcpu-%s", app, cfg.CPUs, cfg.Goal))
}

// writeTuneProfile is the profile file the answer names: the one given,
// or the measured one under its digest's name (the soak's exec got the
// same file).
func writeTuneProfile(dir, given string, p *plan.Profile) (string, error) {
	switch {
	case given != "":
		return filepath.Abs(given)
	case p == nil:
		return "", nil
	}
	return experiment.WriteProfile(dir, p)
}
