// Command parallelreplay replays minmem's and tune's searches at N = 1,
// 2, 4, 8 trials side by side on a simulated app whose trials take the
// wall time a stored bench run measured (bench/parallel.sh passes it in):
// every machine here has 2 cores, so N real trials at once would measure
// each other. Each trial's outcome is the app's (OK from its edge up),
// its wall time the measured one; a round of trials side by side takes
// its longest. It prints key=value figures for bench/results.sh.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/experiment/tune"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const mib = size.MiB

// trace prints each round's trials (candidate@limit verdict) to stderr.
var trace bool

func main() {
	trialSec := flag.Float64("trial-seconds", 20, "wall time of a search trial (the bench run's tune minutes over its trials)")
	longSec := flag.Float64("long-seconds", 15, "what a trial as long as the soak takes more")
	edge := flag.Int64("edge-mib", 112, "the launcher candidate's edge (the bench run's answer)")
	budget := flag.Int("budget", 24, "tune's budget")
	flag.BoolVar(&trace, "trace", false, "print each round's trials to stderr")
	flag.Parse()
	if err := run(*trialSec, *longSec, *edge*mib, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "parallelreplay:", err)
		os.Exit(1)
	}
}

func run(trialSec, longSec float64, edge int64, budget int) error {
	short := time.Duration(trialSec * float64(time.Second))
	long := short + time.Duration(longSec*float64(time.Second))
	// At the bench's own budget, and at one that holds the widest rounds
	// (a round of 8 spends 8 trials of it).
	for _, b := range []int{budget, budget + 8} {
		if err := tuneAt(short, long, edge, b); err != nil {
			return err
		}
	}
	// minmem on a 64Mi-1Gi grid of 8Mi steps, no repeats: the most rounds
	// and trials over every edge on the grid, and the same answer.
	for _, n := range []int{1, 2, 4, 8} {
		worst, trials := 0, 0
		for th := int64(60); th <= 1030; th += 4 {
			s := experiment.Search{Min: 64 * mib, Max: 1024 * mib, Step: 8 * mib, Parallel: n}
			one := func(_ context.Context, mem int64) (*trial.Result, error) {
				v := trial.KO
				if mem >= th*mib {
					v = trial.OK
				}
				return &trial.Result{Verdict: v, Spec: trial.Spec{MemoryBytes: mem}}, nil
			}
			o, err := experiment.MinMem(context.Background(), s, one)
			if err != nil {
				return err
			}
			ref, err := experiment.MinMem(context.Background(), experiment.Search{Min: s.Min, Max: s.Max, Step: s.Step}, one)
			if err != nil {
				return err
			}
			if o.MinOK != ref.MinOK || o.MaxKO != ref.MaxKO {
				return fmt.Errorf("minmem N=%d, edge %d MiB: %s, one at a time %s", n, th, size.Format(o.MinOK), size.Format(ref.MinOK))
			}
			worst, trials = max(worst, o.Rounds), max(trials, len(o.Trials))
		}
		fmt.Printf("minmem.n%d.rounds_max=%d\n", n, worst)
		fmt.Printf("minmem.n%d.trials_max=%d\n", n, trials)
	}
	return nil
}

// tuneAt replays tune at N = 1, 2, 4, 8 with budget b: each N's answer,
// trials, rounds and wall time, against one trial at a time.
func tuneAt(short, long time.Duration, edge int64, b int) error {
	var seqWall time.Duration
	var seq *tune.Result
	for _, n := range []int{1, 2, 4, 8} {
		r, app, err := replay(short, long, edge, b, n)
		if err != nil {
			return err
		}
		if n == 1 {
			seq, seqWall = r, app.wall
		}
		same := r.MemoryBytes == seq.MemoryBytes && r.Candidate == seq.Candidate && r.Verdict == seq.Verdict
		if !same {
			fmt.Fprintf(os.Stderr, "budget %d, N=%d: %s %s at %s; one at a time %s %s at %s\n", b, n, r.Verdict, r.Candidate, size.Format(r.MemoryBytes),
				seq.Verdict, seq.Candidate, size.Format(seq.MemoryBytes))
		}
		fmt.Printf("tune.b%d.n%d.same_answer=%d\n", b, n, b2i(same))
		fmt.Printf("tune.b%d.n%d.answer_mib=%d\n", b, n, r.MemoryBytes/mib)
		fmt.Printf("tune.b%d.n%d.proven=%d\n", b, n, b2i(r.Verdict == tune.Proven))
		fmt.Printf("tune.b%d.n%d.trials=%d\n", b, n, r.Used())
		fmt.Printf("tune.b%d.n%d.rounds=%d\n", b, n, app.rounds)
		fmt.Printf("tune.b%d.n%d.minutes=%.1f\n", b, n, app.wall.Minutes())
		fmt.Printf("tune.b%d.n%d_to_n1=%.2f\n", b, n, app.wall.Seconds()/seqWall.Seconds())
	}
	return nil
}

// replay runs tune --goal footprint at budget b with n trials side by
// side on the replayed app.
func replay(short, long time.Duration, edge int64, b, n int) (*tune.Result, *replayApp, error) {
	app := &replayApp{edge: edge, short: short, long: long}
	dir, err := os.MkdirTemp("", "parallelreplay-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	cfg := tune.Config{CPUs: 1, Goal: plan.Footprint, Budget: b, Soak: 30 * time.Second, Step: 8 * mib, Min: 32 * mib,
		Generous: 512 * mib, JDK: 17, ArchiveDir: dir, Parallel: n, Profile: filecacheProfile(),
		Planner: tune.LauncherPlannerFor(jdk.JDK{Version: 17}, plan.Footprint)}
	var trials tune.Trials = app
	if n > 1 {
		trials = batched{app}
	}
	r, err := tune.Run(context.Background(), cfg, trials)
	return r, app, err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// filecacheProfile is a profile of the size filecache's bench run
// measured (bench/results/tune-edge-filecache.json).
func filecacheProfile() *plan.Profile {
	return &plan.Profile{Version: 1, LiveHeapBytes: 29 * mib / 2, MetaspaceUsedBytes: 15 * mib / 2, ClassSpaceUsedBytes: mib,
		CodeCacheUsedBytes: 10 * mib, PeakThreads: 30}
}

// replayApp passes from each candidate's edge up: the launcher's goal
// candidate's edge is the bench's answer, the others' a fixed offset of
// it by name (-8 to +32 MiB), the same for every N.
type replayApp struct {
	edge        int64
	short, long time.Duration
	wall        time.Duration
	rounds      int
}

func (a *replayApp) judge(p tune.Point) (tune.Outcome, time.Duration) {
	d := a.short
	if p.Soak > 0 {
		d = a.long
	}
	if p.Purpose == tune.PurposeTraining || p.Purpose == tune.PurposeProfile {
		return tune.Outcome{Verdict: trial.OK, StartSeconds: 3, P99: 5 * time.Millisecond}, d
	}
	h := fnv.New32a()
	h.Write([]byte(p.Candidate))
	min := a.edge + int64(h.Sum32()%6)*8*mib - 8*mib
	if p.Candidate == "" || p.Candidate == "launcher" {
		min = a.edge
	}
	if p.MemoryBytes < min {
		return tune.Outcome{Verdict: trial.KO, Kind: trial.KindOOMKilled, StartSeconds: 3}, d
	}
	return tune.Outcome{Verdict: trial.OK, P99: 5 * time.Millisecond, StartSeconds: 3, PeakBytes: min}, d
}

func (a *replayApp) Run(_ context.Context, p tune.Point) (tune.Outcome, error) {
	o, d := a.judge(p)
	a.wall += d
	a.rounds++
	a.show([]tune.Point{p}, []tune.Outcome{o})
	return o, nil
}

func (a *replayApp) Soak(ctx context.Context, p tune.Point) (tune.Outcome, error) {
	return a.Run(ctx, p)
}

// batched runs a round side by side: its wall time is its longest trial.
type batched struct{ *replayApp }

func (b batched) RunAll(_ context.Context, ps []tune.Point) ([]tune.Outcome, error) {
	var outs []tune.Outcome
	var longest time.Duration
	for _, p := range ps {
		o, d := b.judge(p)
		outs = append(outs, o)
		longest = max(longest, d)
	}
	b.wall += longest
	b.rounds++
	b.show(ps, outs)
	return outs, nil
}

func (a *replayApp) show(ps []tune.Point, outs []tune.Outcome) {
	if !trace {
		return
	}
	fmt.Fprintf(os.Stderr, "round %d:", a.rounds)
	for i, p := range ps {
		what := p.Purpose
		if p.Soak > 0 {
			what += "+soak"
		}
		fmt.Fprintf(os.Stderr, " %s@%s(%s)=%s", p.Candidate, size.Format(p.MemoryBytes), what, outs[i].Verdict)
	}
	fmt.Fprintln(os.Stderr)
}
