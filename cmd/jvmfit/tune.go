package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
)

func init() { commands = append(commands, newTune) }

// tuneFlags are tune's own flags, on top of the experiment flags.
type tuneFlags struct {
	ef              experimentFlags
	cpus, goal, top string
	rate            float64
	budget, reruns  int
	soak            time.Duration
	emit            emitFlags
}

func newTune() *cobra.Command {
	var f tuneFlags
	cmd := &cobra.Command{
		Use:   "tune (--app app.yaml | --jar app.jar [--get PATH]) [--cpus N] [--goal footprint|balanced|throughput] [--budget TRIALS]",
		Short: "Search the memory limit and the JVM options together for the smallest footprint that holds the SLO",
		Long: `tune measures the app at a generous limit (--generous) with the JDK's
defaults, generates candidate option sets from that profile and --goal
(GC, C1 or tiered, heap from the live set, metaspace, code cache, stacks,
free ratios, CDS and on JDK 25 an AOT cache), bisects the limit of the most
promising ones on an 8 MiB grid while dropping the dominated and the worse
half after each round, and proves the chosen point: the edge is held for
the --soak's length, then soaked as recommended. Every trial counts in
--budget (the profile, training runs, the search and the proof); three are
always kept for the proof. Before the search tune estimates its own cost
and says whether the budget covers a proof; without --budget, the budget
scales to that estimate. --rerun N runs a proven answer N more times,
each a fresh JVM started as the soak was. Trials are stored in --db as they
end, and a rerun reuses the stored ones, so an interrupted tune resumes.
See docs/tune.md.`,
		Example: `  jvmfit tune --jar target/app.jar --get /api/items --rate 100
  jvmfit tune --app workloads/filecache/app.yaml --cpus 1 --goal footprint
  jvmfit tune --app app.yaml --cpus 2 --rate 200 --budget 24 --soak 2m --json
  jvmfit tune --app app.yaml --goal footprint --rerun 3`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("tune takes no arguments (got %q): give the app with --app app.yaml or --jar app.jar", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	f.ef.register(cmd)
	d := tune.Default
	fl := cmd.Flags()
	fl.StringVar(&f.cpus, "cpus", "1", "the CPU limit to tune for, e.g. 1 or 0.5")
	fl.Float64Var(&f.rate, "rate", 0, "measured request rate (0 = the descriptor's or scenario's)")
	fl.StringVar(&f.goal, "goal", d.Goal, "footprint (the smallest limit that holds the SLO), balanced or throughput (a weighted cost of memory, p99, start time and throttling)")
	fl.IntVar(&f.budget, "budget", d.Budget, "trials in all: the profile, training runs, the search and the proof (unset: at least this many, more when tune estimates the app needs them)")
	fl.DurationVar(&f.soak, "soak", d.Soak, "measured length of the proof at the chosen point (0 = no proof: the answer is then not proven)")
	fl.IntVar(&f.reruns, "rerun", 0, "fresh reruns of a proven answer, each run as the soak was (jvmfit exec with the profile); not in --budget")
	fl.StringVar(&f.top, "generous", size.Format(d.Generous), "the profile trial's limit and the top of the search")
	f.emit.bind(fl)
	return cmd
}

func (f *tuneFlags) run(cmd *cobra.Command) error {
	cfg, err := tuneConfig(f.cpus, f.goal, f.top, f.rate, f.budget, f.soak)
	if err != nil {
		return err
	}
	cfg.Reruns = f.reruns
	if err := cfg.Validate(); err != nil {
		return asUsage(err)
	}
	if err := f.emit.check(jsonFlag(f.ef.json)); err != nil {
		return err
	}
	cfg.ScaleBudget = !cmd.Flags().Changed("budget")
	f.ef.backend.room = experiment.Room{CPUs: cfg.CPUs, MemoryBytes: cfg.Generous}
	sess, err := f.ef.open()
	if err != nil {
		return err
	}
	defer sess.close()
	cfg.Parallel = sess.Parallel
	sess.Base.Rate = f.rate
	t, err := tune.Open(sess.Session, cfg, f.ef.db, f.ef.profile)
	if err != nil {
		return asUsage(err)
	}
	args := map[string]any{"app": f.ef.appRef(), "cpus": cfg.CPUs, "goal": cfg.Goal, "budget": cfg.Budget, "rate": f.rate,
		"soak": f.soak.String(), "generous": cfg.Generous, "profile": f.ef.profile, "rerun": cfg.Reruns, "parallel": cfg.Parallel}
	if err := sess.begin(store.KindTune, args); err != nil {
		return err
	}
	t.Summarize = report.TuneSummary
	res, profileFile, runErr := t.Run(cmd.Context())
	if res == nil {
		return runErr
	}
	out := cmd.OutOrStdout()
	if f.emit.kind != "" {
		if runErr != nil {
			return runErr
		}
		if res.Verdict != tune.Proven {
			fmt.Fprintf(cmd.ErrOrStderr(), "jvmfit: note: the answer is %s: its soak did not prove it (docs/tune.md)\n", res.Verdict)
		}
		return f.emit.write(out, res.Answer(profileFile), sess.App.Name)
	}
	if f.ef.json {
		if err := printJSON(out, report.NewTuneJSON(res, profileFile)); err != nil {
			return err
		}
	} else {
		fmt.Fprint(out, report.TuneMarkdown(res, profileFile))
	}
	return runErr
}

// tuneConfig checks the flags before anything is opened or stored.
func tuneConfig(cpus, goal, generous string, rate float64, budget int, soak time.Duration) (tune.Config, error) {
	cfg := tune.Default
	if cpus == "" {
		return cfg, usagef("--cpus: give the CPU limit to tune for, e.g. --cpus 1")
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
