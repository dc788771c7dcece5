package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/report"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
)

func init() { commands = append(commands, newMinMem) }

const minmemLong = `minmem searches, for each CPU count and JVM option mode, the smallest
memory limit at which a trial is OK: doubling from --min until a trial
passes, bisecting on a --step grid, then running the lowest OK and the
highest KO limits --repeats more times (a limit's verdict is the majority
of its runs; a tie is KO). The recommended limit (the lowest OK plus a
margin) is then proven by a --soak: one trial measured that long at the
limit itself; a KO raises the limit 16 MiB and soaks again, at most three
soaks in all. Every trial is stored in --db as it ends; a trial identical to
one already there is taken from there (unless --fresh), so the same command
resumes an interrupted minmem. A limit the launcher refuses to plan for is
no trial: the search moves up to the smallest limit on the grid it accepts.`

func newMinMem() *cobra.Command {
	var (
		ef                       experimentFlags
		cpus, jvms, lo, hi, step string
		rate                     float64
		repeats, maxTrials       int
		soak                     time.Duration
		emit                     emitFlags
	)
	cmd := &cobra.Command{
		Use:   "minmem (--app app.yaml | --jar app.jar [--get PATH]) [--cpus 1] [--jvm default,jvmfit]",
		Short: "Find the smallest memory limit at which the service passes its SLO",
		Long:  minmemLong,
		Example: `  jvmfit minmem --app workloads/filecache/app.yaml --cpus 1 --jvm default,jvmfit
  jvmfit minmem --app app.yaml --min 96Mi --max 512Mi --step 16Mi --repeats 2 --json
  jvmfit minmem --jar target/app.jar --get /api/items --rate 100 --cpus 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cpuList, err := experiment.ParseNumbers("cpus", cpus)
			if err != nil {
				return asUsage(err)
			}
			modes := experiment.ParseList(jvms)
			if len(modes) == 0 {
				return usagef("--jvm: give at least one mode, e.g. default,jvmfit")
			}
			s, err := parseSearch(lo, hi, step, repeats, maxTrials)
			if err != nil {
				return err
			}
			if rate < 0 {
				return usagef("--rate cannot be negative")
			}
			if soak < 0 {
				return usagef("--soak cannot be negative (0 skips the proof)")
			}
			args := map[string]any{"app": ef.appRef(), "cpus": cpuList, "jvm": modes, "min": s.Min, "max": s.Max, "step": s.Step, "repeats": s.Repeats, "rate": rate, "soak": soak.String()}
			ef.backend.room = experiment.Room{CPUs: slices.Max(cpuList), MemoryBytes: s.Max}
			if err := emit.check(jsonFlag(ef.json)); err != nil {
				return err
			}
			sess, err := ef.open()
			if err != nil {
				return err
			}
			defer sess.close()
			sess.Base.Rate = rate
			return runMinMem(cmd, sess, experiment.MinMemPlan{CPUs: cpuList, JVMs: modes, Search: s}, args, soak, ef.json, emit)
		},
	}
	ef.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&cpus, "cpus", "1", "CPU counts to search at, e.g. 1 or 0.5,1,2")
	fl.StringVar(&jvms, "jvm", "default,jvmfit", "JVM option modes: default, jvmfit[:goal], runjava, paketo, ubi, set:NAME or quoted options")
	fl.StringVar(&lo, "min", size.Format(experiment.DefaultSearch.Min), "lowest limit tried")
	fl.StringVar(&hi, "max", size.Format(experiment.DefaultSearch.Max), "highest limit tried")
	fl.StringVar(&step, "step", size.Format(experiment.DefaultSearch.Step), "grid step: the answer's precision")
	fl.IntVar(&repeats, "repeats", experiment.DefaultSearch.Repeats, "extra runs of the lowest OK and highest KO limits")
	fl.IntVar(&maxTrials, "max-trials", 0, "stop a search after this many trials (0 = no cap)")
	fl.Float64Var(&rate, "rate", 0, "measured request rate (0 = the descriptor's or scenario's)")
	fl.DurationVar(&soak, "soak", experiment.DefaultSoak, "measured length of the proof trial at the recommended limit (0 = no proof)")
	emit.bind(fl)
	return cmd
}

// parseSearch reads the search's range flags.
func parseSearch(lo, hi, step string, repeats, maxTrials int) (experiment.Search, error) {
	s := experiment.Search{Repeats: repeats, MaxTrials: maxTrials}
	for _, p := range []struct {
		flag, v string
		dst     *int64
	}{{"min", lo, &s.Min}, {"max", hi, &s.Max}, {"step", step, &s.Step}} {
		v, err := size.Parse(p.v)
		if err != nil {
			return s, usagef("--%s: %v", p.flag, err)
		}
		*p.dst = v
	}
	return s, asUsage(s.Validate())
}

// runMinMem checks, records and runs the search and its soak, then prints.
func runMinMem(cmd *cobra.Command, sess *session, plan experiment.MinMemPlan, args any, soak time.Duration, asJSON bool, emit emitFlags) error {
	if err := plan.Check(sess.Session); err != nil {
		return asUsage(err)
	}
	if err := sess.begin(store.KindMinMem, args); err != nil {
		return err
	}
	t0 := time.Now()
	results, ans, runErr := plan.Conclude(cmd.Context(), sess.Session, soak)
	ran, reused := sess.Counts()
	if runErr != nil && ran+reused == 0 {
		return runErr
	}
	out := cmd.OutOrStdout()
	if emit.kind != "" {
		switch {
		case runErr != nil:
			return runErr
		case ans.Rec == nil:
			return fmt.Errorf("no answer to emit: %v", ans.WhyNot)
		}
		return emit.write(out, ans.Rec.Answer(), sess.App.Name)
	}
	if asJSON {
		if err := printJSON(out, report.NewMinMemJSON(sess.ID, results, ans.Rec)); err != nil {
			return err
		}
		return runErr
	}
	if err := sess.tables(out); err != nil {
		return err
	}
	fmt.Fprint(out, "### The search\n\n"+report.MinMemSearch(results))
	s := plan.Search
	fmt.Fprintf(out, "\n%d trials (%d run, %d from the store) in %s; search grid %s from %s to %s, %d repeat(s) at the boundary.\n\n",
		ran+reused, ran, reused, time.Since(t0).Round(time.Second), size.Format(s.Step), size.Format(s.Min), size.Format(s.Max), s.Repeats)
	printAnswer(out, ans, runErr)
	return runErr
}

// printAnswer ends an experiment's Markdown: the recommendation, why there
// is none, or how to resume one that stopped early.
func printAnswer(out io.Writer, ans experiment.Answer, runErr error) {
	switch {
	case runErr != nil:
		fmt.Fprintf(out, "Stopped early (%v); run the same command again to resume: the trials done are kept and taken from the store.\n", runErr)
	case ans.Rec != nil:
		fmt.Fprint(out, report.RecommendationMarkdown(ans.Rec))
	default:
		fmt.Fprintf(out, "No recommendation: %v\n", ans.WhyNot)
	}
}
