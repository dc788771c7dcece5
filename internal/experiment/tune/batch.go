package tune

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Batcher runs independent points side by side (a Session's Batch: N
// pods, or N cgroups with their own CPUs), with their outcomes in the
// order given. Trials that are not one run points one at a time.
type Batcher interface {
	RunAll(ctx context.Context, ps []Point) ([]Outcome, error)
}

// job is one search trial of a round: a candidate at a limit; or, with
// train, the candidate's training run, taken ahead in a spare slot.
type job struct {
	c     *cand
	mem   int64
	train bool
	heap  int64 // a challenge's heap (challenge.go); 0 plans c's own
}

// workers is how many trials run side by side.
func (s *searcher) workers() int { return max(1, s.cfg.Parallel) }

// fit trims a round to what the budget holds beyond the proof's reserve,
// counting the training runs it would need; BudgetSpent when it had to.
func (s *searcher) fit(jobs []job) []job {
	need := 0
	var out []job
	for _, j := range jobs {
		n := 1
		if !j.train && j.c.Training != nil && !j.c.trained {
			n = 2
		}
		switch {
		case s.room(need + n):
			need += n
			out = append(out, j)
		case n == 2 && s.room(need+1):
			// Its training does not fit, but a trial of another might.
			s.res.BudgetSpent = true
			j.c.Dropped = "no budget left for its training run"
		default:
			s.res.BudgetSpent = true
			return out
		}
	}
	return out
}

// step runs one round: the training runs its candidates still need, then
// their trials, side by side; each outcome goes into its candidate's
// bracket. A trial whose JVM would run with exactly the options of a
// search trial already run at that limit is not run again: it shares that
// outcome (the launcher's own candidate and a GC and compiler pair often
// plan the same JVM at small limits).
//
// A job whose candidate already ran this very JVM (a spare slot tried it
// ahead) is not run again, and training jobs run in the same round.
func (s *searcher) step(ctx context.Context, jobs []job) error {
	var search, ahead []job
	for _, j := range jobs {
		if j.train {
			ahead = append(ahead, j)
		} else {
			search = append(search, j)
		}
	}
	if err := s.train(ctx, search); err != nil {
		return err
	}
	var run []Point
	var runJobs []job
	var plans [][]string
	for _, j := range search {
		if j.c.Dropped != "" {
			continue
		}
		p := s.point(j.c, PurposeSearch, j.mem)
		p.Options = challengeOptions(j.c, p.Options, j.heap)
		pl, err := s.searchPlan(&p)
		if h := s.passHeap(j.c, j.mem); err == nil && h > 0 && pl.HeapBytes() != h {
			p.Options = challengeOptions(j.c, p.Options, h)
			pl, err = s.searchPlan(&p)
		}
		if err != nil {
			j.c.Dropped = "the launcher cannot plan its options: " + err.Error()
			continue
		}
		if s.ranOwn(j.c, p, pl.Options) {
			continue
		}
		if i := s.sameJVM(p, pl.Options, run, plans); i >= 0 {
			s.share(j.c, p, pl.Options, i)
			continue
		}
		run, runJobs, plans = append(run, p), append(runJobs, j), append(plans, pl.Options)
	}
	for _, j := range ahead {
		if j.c.Dropped == "" && !j.c.trained && !slices.ContainsFunc(runJobs, func(r job) bool { return r.train && r.c == j.c }) {
			run, runJobs, plans = append(run, s.trainingPoint(j.c)), append(runJobs, j), append(plans, nil)
		}
	}
	outs, err := s.runAll(ctx, run)
	for i, o := range outs {
		idx := len(s.res.Trials) - len(outs) + i
		if runJobs[i].train {
			s.trained(runJobs[i].c, o)
			continue
		}
		s.res.Trials[idx].PlanOptions = plans[i]
		s.filed(runJobs[i].c, run[i], o, idx)
	}
	return err
}

// searchPlan is the launcher's plan for search point p; a limit the
// planner refuses is planned as exec plans it (p.Fit), since above its
// floor the planner is not monotone in the limit: what it refuses, exec
// still runs.
func (s *searcher) searchPlan(p *Point) (*plan.Plan, error) {
	pl, err := s.cfg.Planner(*p)
	var ref *plan.RefusedError
	if errors.As(err, &ref) {
		p.Fit = true
		pl, err = s.cfg.Planner(*p)
	}
	return pl, err
}

// ranOwn says whether c already has a search trial of the JVM p would run.
func (s *searcher) ranOwn(c *cand, p Point, planOpts []string) bool {
	key := jvmKey(p, planOpts)
	for _, t := range s.res.Trials {
		if t.Point.Purpose == PurposeSearch && t.Point.Candidate == c.Name && jvmKey(t.Point, t.PlanOptions) == key {
			return true
		}
	}
	return false
}

// filed records an outcome for c: its bracket, and the profile a measured
// pass brings.
func (s *searcher) filed(c *cand, p Point, o Outcome, idx int) {
	s.record(c, p.MemoryBytes, o, idx)
	if o.Verdict == trial.OK && p.Measure && o.Profile != nil && c.prof == nil {
		s.adopt(c, o.Profile, p.MemoryBytes)
	}
	if c.MinOKBytes == 0 && c.ko >= s.top {
		c.Dropped = fmt.Sprintf("KO up to the generous limit %s (%s)", size.Format(s.top), o.Kind)
	}
}

// train runs the training runs the round's candidates still need.
func (s *searcher) train(ctx context.Context, jobs []job) error {
	var ps []Point
	var cs []*cand
	for _, j := range jobs {
		if j.c.Training == nil || j.c.trained || slices.Contains(cs, j.c) {
			continue
		}
		ps, cs = append(ps, s.trainingPoint(j.c)), append(cs, j.c)
	}
	outs, err := s.runAll(ctx, ps)
	for i, o := range outs {
		s.trained(cs[i], o)
	}
	return err
}

// trainingPoint is c's training run: its training options at the
// generous limit.
func (s *searcher) trainingPoint(c *cand) Point {
	p := s.point(c, PurposeTraining, s.cfg.Generous)
	p.Options, p.Fit = c.Training, false
	return p
}

// trained files c's training run.
func (s *searcher) trained(c *cand, o Outcome) {
	c.trained = true
	c.Trials++
	if o.Verdict != trial.OK {
		c.Dropped = fmt.Sprintf("its training run failed (%s)", o.Kind)
		return
	}
	// Its archive now exists and the launcher plans with it, so its
	// floor and start move (catalog, serial-c1-appcds, planned without
	// its archive, was sent to a limit where the heap was 3/4 of the
	// live set and died there of Java heap space before it was ready).
	if f, err := s.floorOf(s.point(c, PurposeSearch, s.low())); err == nil && f > 0 {
		c.FloorBytes = f
		c.soft = min(c.soft, f-s.cfg.Step)
	}
	if st := s.startOf(s.point(c, PurposeSearch, s.low())); st > 0 {
		c.start = st
	}
}

// runAll runs points side by side when the trials can, else one after the
// other, and records each as it comes back. On an error the outcomes that
// came back are returned with it.
func (s *searcher) runAll(ctx context.Context, ps []Point) ([]Outcome, error) {
	if b, ok := s.trials.(Batcher); ok && s.workers() > 1 && len(ps) > 1 {
		outs, err := s.runBatch(ctx, b, ps)
		if err != nil {
			return outs, fmt.Errorf("tune: %w", err)
		}
		return outs, nil
	}
	var outs []Outcome
	for _, p := range ps {
		o, err := s.run(ctx, p)
		if err != nil {
			return outs, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// sameJVM is the index of the search trial whose JVM ran with the options
// this point's would (the same limit and length, and the same options once
// each flag's last value is taken): a stored one, or len(s.res.Trials)+i
// for this round's i-th point. -1 when none.
func (s *searcher) sameJVM(p Point, planOpts []string, run []Point, plans [][]string) int {
	key := jvmKey(p, planOpts)
	for i, t := range s.res.Trials {
		if t.Point.Purpose == PurposeSearch && !t.Shared && jvmKey(t.Point, t.PlanOptions) == key {
			return i
		}
	}
	for i, q := range run {
		if jvmKey(q, plans[i]) == key {
			return len(s.res.Trials) + i
		}
	}
	return -1
}

// share records p as a trial that reuses the outcome of trial i (which
// may still be in this round: then it is filed when the round ends).
func (s *searcher) share(c *cand, p Point, planOpts []string, i int) {
	if i >= len(s.res.Trials) {
		// In this round: run it first, share after. Rare (two candidates
		// new to the same limit in one round); the simple way is to leave
		// this one for the next round.
		return
	}
	t := s.res.Trials[i]
	o := t.Outcome
	o.Profile = nil
	if p.Measure && t.Point.Measure {
		o.Profile = t.Outcome.Profile
	}
	s.res.Trials = append(s.res.Trials, Trial{Point: p, Outcome: o, PlanOptions: planOpts, Shared: true})
	s.filed(c, p, o, len(s.res.Trials)-1)
}

// jvmKey is what makes two search trials the same run of the same JVM.
func jvmKey(p Point, planOpts []string) string {
	return fmt.Sprintf("%d|%g|%s|%d|%s", p.MemoryBytes, p.CPUs, p.Soak, p.Repeat, strings.Join(effective(join(planOpts, p.Options)), " "))
}

// effective is a command line's JVM options as the JVM takes them: the
// last value of each flag wins, in a fixed order.
func effective(opts []string) []string {
	last := map[string]string{}
	for _, o := range opts {
		last[flagName(o)] = o
	}
	out := make([]string, 0, len(last))
	for _, o := range last {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// flagName is the flag an option sets: -XX:+Name and -XX:-Name are one,
// -XX:Name=v is Name, and -Xmx, -Xms, -Xss and -Xmn are their own.
func flagName(o string) string {
	switch {
	case strings.HasPrefix(o, "-XX:+"), strings.HasPrefix(o, "-XX:-"):
		return "XX:" + o[5:]
	case strings.HasPrefix(o, "-XX:"):
		name, _, _ := strings.Cut(o[4:], "=")
		return "XX:" + name
	case strings.HasPrefix(o, "-D"):
		name, _, _ := strings.Cut(o, "=")
		return name
	}
	for _, pre := range []string{"-Xmx", "-Xms", "-Xss", "-Xmn", "-Xshare:"} {
		if strings.HasPrefix(o, pre) {
			return pre
		}
	}
	return o
}
