package tune

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func candidateResult(r *Result, name string) *CandidateResult {
	for i := range r.Candidates {
		if r.Candidates[i].Name == name {
			return &r.Candidates[i]
		}
	}
	return nil
}

func TestTuneConverges(t *testing.T) {
	a := footprintApp()
	cfg := simConfig(a, plan.Footprint, 40)
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	best := a.cands["serial-c1-noshare"].min
	if r.Candidate != "serial-c1-noshare" || r.MemoryBytes < best || r.MemoryBytes-best >= cfg.withDefaults().Step {
		t.Fatalf("answer %s at %d MiB; want serial-c1-noshare within one step above %d MiB\n%s", r.Candidate, r.MemoryBytes/tmib, best/tmib, searchLog(r))
	}
	if r.Verdict != Proven || len(r.Soaks) != 1 || r.Soaks[0].Point.Soak != time.Minute {
		t.Errorf("verdict %q with %d soaks; want proven by one 1m soak", r.Verdict, len(r.Soaks))
	}
	if r.Used() > cfg.Budget || r.Used() != len(a.runs) {
		t.Errorf("used %d trials, ran %d, budget %d", r.Used(), len(a.runs), cfg.Budget)
	}
	// Every converged candidate's minimum is its true one, on the grid.
	for _, c := range r.Candidates {
		if !c.Converged {
			continue
		}
		want := (a.cand(c.Name).min + 8*tmib - 1) / (8 * tmib) * (8 * tmib)
		if c.MinOKBytes != want {
			t.Errorf("%s converged at %d MiB, want %d", c.Name, c.MinOKBytes/tmib, want/tmib)
		}
	}
	if !reflect.DeepEqual(r.Options, candidateResult(r, r.Candidate).Options) || len(r.PlanOptions) == 0 {
		t.Errorf("options %v, plan options %v", r.Options, r.PlanOptions)
	}
	t.Logf("%d trials:\n%s", r.Used(), searchLog(r))
	runCounts(t, a.runs)
	if a.runs[0].Purpose != PurposeProfile || a.runs[0].MemoryBytes != Default.Generous {
		t.Errorf("first trial %s; want the profile at the generous limit", a.runs[0])
	}
	for _, p := range a.runs[1:] {
		if p.Profile == nil || p.Profile.LiveHeapBytes != 20*tmib {
			t.Errorf("%s does not carry the measured profile", p)
		}
	}
}

func searchLog(r *Result) string {
	var b strings.Builder
	for _, t := range r.Trials {
		b.WriteString(t.Point.String() + ": " + string(t.Outcome.Verdict) + "\n")
	}
	for _, c := range r.Candidates {
		b.WriteString(c.Name + ": " + c.Dropped + "\n")
	}
	return b.String()
}

func TestTuneBudgetExact(t *testing.T) {
	for budget := 7; budget <= 40; budget++ {
		a := footprintApp()
		r, err := Run(context.Background(), simConfig(a, plan.Footprint, budget), a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Used() > budget || len(a.runs) != r.Used() {
			t.Fatalf("budget %d: used %d, ran %d", budget, r.Used(), len(a.runs))
		}
		// Three trials are always kept for the proof (the chosen edge held
		// as long as the soak, the soak, and one soak a step up): a search
		// that ran out of budget leaves exactly those, and the proof spends
		// the first two when there is a point to prove and its soak passes.
		switch {
		case r.Chosen >= 0 && r.Verdict != Proven:
			t.Errorf("budget %d: verdict %q\n%s", budget, r.Verdict, searchLog(r))
		case r.Chosen >= 0 && a.runs[len(a.runs)-1].Purpose != PurposeSoak:
			t.Errorf("budget %d: last trial %s, want the soak", budget, a.runs[len(a.runs)-1])
		case r.Chosen < 0 && (r.Verdict != None || len(r.Soaks) != 0):
			t.Errorf("budget %d: no OK point, verdict %q, %d soaks", budget, r.Verdict, len(r.Soaks))
		case r.BudgetSpent && r.Chosen >= 0 && r.Used() != budget-1 && !(r.Used() == budget-2 && droppedForTraining(r)):
			t.Errorf("budget %d: the search stopped for the budget after %d trials", budget, r.Used())
		case r.BudgetSpent && r.Chosen < 0 && r.Used() != budget-3:
			t.Errorf("budget %d: the search stopped for the budget after %d trials, none OK", budget, r.Used())
		}
		if budget >= 12 && r.Chosen < 0 {
			t.Errorf("budget %d found no point\n%s", budget, searchLog(r))
		}
	}
}

// droppedForTraining says whether a candidate was left for want of room
// for its training run: the trial left over may then fit no other.
func droppedForTraining(r *Result) bool {
	for _, c := range r.Candidates {
		if c.Dropped == "no budget left for its training run" {
			return true
		}
	}
	return false
}

func TestTuneBudgetSoakRetries(t *testing.T) {
	// The soak needs 12 MiB more than the search trials: with budget left
	// it raises the limit a step at a time; without, there is no answer
	// (not a guess a step up) and tune says the budget it needs.
	a := footprintApp()
	a.soakExtra = 12 * tmib
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 60), a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Proven || len(r.Soaks) != 3 || r.MemoryBytes != 112*tmib {
		t.Errorf("roomy budget: %q after %d soaks at %d MiB; want proven at 112 MiB by the third", r.Verdict, len(r.Soaks), r.MemoryBytes/tmib)
	}
	a = footprintApp()
	a.soakExtra = 12 * tmib
	r, err = Run(context.Background(), simConfig(a, plan.Footprint, 12), a)
	if err != nil {
		t.Fatal(err)
	}
	// The kept retry is spent a step up, and fails too.
	if r.Verdict != None || r.Used() != 12 || len(r.Soaks) != 2 || r.MemoryBytes != 0 {
		t.Errorf("tight budget: %q at %d MiB after %d trials, %d soaks; want none after 12, two soaks", r.Verdict, r.MemoryBytes/tmib, r.Used(), len(r.Soaks))
	}
	if r.BudgetNeeded <= 12 || !strings.Contains(strings.Join(r.Notes, "\n"), fmt.Sprintf("--budget %d", r.BudgetNeeded)) {
		t.Errorf("tight budget: needs %d, notes %q", r.BudgetNeeded, r.Notes)
	}
}

// A candidate KO one step under the incumbent's edge costs that one
// trial; one whose planned floor is two steps or more above the edge
// costs none.
func TestTuneDropsWhatCannotWin(t *testing.T) {
	a := footprintApp()
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	var ko, none int
	for _, c := range r.Candidates {
		switch {
		case strings.HasPrefix(c.Dropped, "KO at"):
			ko++
			if c.Trials != 1 && !(c.Training != nil && c.Trials == 2) {
				t.Errorf("%s ran %d trials before being dropped", c.Name, c.Trials)
			}
		case strings.HasPrefix(c.Dropped, "cannot win"):
			none++
			if c.Trials != 0 {
				t.Errorf("%s could not win and ran %d trials", c.Name, c.Trials)
			}
		}
	}
	// parallel-tiered needs 150 MiB where the answer is 96: it never runs.
	if pt := candidateResult(r, "parallel-tiered"); pt == nil || pt.Trials != 0 || r.Candidate == "parallel-tiered" {
		t.Errorf("parallel-tiered: %+v; want no trial", pt)
	}
	if ko == 0 || none == 0 {
		t.Errorf("%d dropped for a KO at the edge, %d that could not win: the test does not test both\n%s", ko, none, searchLog(r))
	}
}

// storedTrials is a Session as tune sees it: it reuses a stored trial
// with the same point instead of running it again.
type storedTrials struct {
	app    *simApp
	stored map[string]Outcome
}

func (s *storedTrials) through(ctx context.Context, p Point, f func(context.Context, Point) (Outcome, error)) (Outcome, error) {
	if o, ok := s.stored[pointKey(p)]; ok {
		return o, nil
	}
	o, err := f(ctx, p)
	if err == nil {
		s.stored[pointKey(p)] = o
	}
	return o, err
}

func (s *storedTrials) Run(ctx context.Context, p Point) (Outcome, error) {
	return s.through(ctx, p, s.app.Run)
}

func (s *storedTrials) Soak(ctx context.Context, p Point) (Outcome, error) {
	return s.through(ctx, p, s.app.Soak)
}

func TestTuneResumes(t *testing.T) {
	fresh := footprintApp()
	want, err := Run(context.Background(), simConfig(fresh, plan.Footprint, 40), fresh)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2, 7, 15, len(fresh.runs) - 1} {
		a := footprintApp()
		a.stopAfter = k
		st := &storedTrials{app: a, stored: map[string]Outcome{}}
		_, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), st)
		if !errors.Is(err, context.Canceled) || len(a.runs) != k {
			t.Fatalf("interrupted at %d: err %v after %d runs", k, err, len(a.runs))
		}
		a.stopAfter = 0
		got, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), st)
		if err != nil {
			t.Fatal(err)
		}
		runCounts(t, a.runs)
		if len(a.runs) != len(fresh.runs) {
			t.Errorf("interrupted at %d: %d trials run in all, %d without the interruption", k, len(a.runs), len(fresh.runs))
		}
		if got.Candidate != want.Candidate || got.MemoryBytes != want.MemoryBytes || got.Verdict != want.Verdict || got.Used() != want.Used() {
			t.Errorf("interrupted at %d: %s at %d (%s, %d trials); uninterrupted %s at %d (%s, %d)", k,
				got.Candidate, got.MemoryBytes, got.Verdict, got.Used(), want.Candidate, want.MemoryBytes, want.Verdict, want.Used())
		}
	}
}

func TestTuneGoalChangesAnswer(t *testing.T) {
	ms := time.Millisecond
	mk := func() *simApp {
		return &simApp{cands: map[string]simCand{
			"serial-c1":       {min: 96 * tmib, p99: 40 * ms, start: 4, floorBelow: 16 * tmib},
			"parallel-tiered": {min: 128 * tmib, p99: 8 * ms, start: 3, floorBelow: 16 * tmib},
		}, def: simCand{min: 200 * tmib, p99: 60 * ms, start: 5, floorBelow: 16 * tmib}}
	}
	answers := map[string]string{}
	for _, goal := range []string{plan.Footprint, plan.Throughput} {
		a := mk()
		r, err := Run(context.Background(), simConfig(a, goal, 40), a)
		if err != nil {
			t.Fatal(err)
		}
		answers[goal] = r.Candidate
		if r.Verdict != Proven {
			t.Errorf("%s: %s", goal, r.Verdict)
		}
	}
	if answers[plan.Footprint] != "serial-c1" || answers[plan.Throughput] != "parallel-tiered" {
		t.Errorf("answers %v; want serial-c1 for footprint (less memory), parallel-tiered for throughput (p99 5x lower)", answers)
	}
}

func TestTuneProfileKO(t *testing.T) {
	a := footprintApp()
	ko := &koProfile{a}
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 10), ko)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != None || r.Used() != 1 || len(r.Notes) == 0 {
		t.Errorf("verdict %q after %d trials, notes %v; want none after the failed profile trial", r.Verdict, r.Used(), r.Notes)
	}
}

type koProfile struct{ *simApp }

func (k *koProfile) Run(ctx context.Context, p Point) (Outcome, error) {
	return Outcome{Verdict: trial.KO, Kind: trial.KindNotReady}, nil
}

func TestTuneConfigErrors(t *testing.T) {
	a := footprintApp()
	for name, mod := range map[string]func(*Config){
		"budget":   func(c *Config) { c.Budget = 2 },
		"cpus":     func(c *Config) { c.CPUs = 0 },
		"goal":     func(c *Config) { c.Goal = "speed" },
		"soak":     func(c *Config) { c.Soak = -time.Second },
		"range":    func(c *Config) { c.Generous = c.Min },
		"no range": func(c *Config) { c.Min, c.Generous = 512*tmib, 256*tmib },
	} {
		cfg := simConfig(a, plan.Footprint, 40)
		cfg = cfg.withDefaults()
		mod(&cfg)
		if _, err := Run(context.Background(), cfg, a); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err %v; want one line", name, err)
		}
	}
	noJDK := simConfig(a, plan.Footprint, 40)
	noJDK.Planner, noJDK.JDK = nil, 0
	if _, err := Run(context.Background(), noJDK, a); err == nil {
		t.Error("no JDK version and no planner: accepted")
	}
	if len(a.runs) != 0 {
		t.Errorf("%d trials ran for a bad config", len(a.runs))
	}
	cfg := simConfig(a, plan.Footprint, 4)
	cfg.Soak = 0
	if _, err := Run(context.Background(), cfg, a); err != nil {
		t.Errorf("budget 4 without a soak: %v", err)
	}
	// Below what the edge-first search needs: refused before any trial,
	// in one line naming the budget to give.
	a = footprintApp()
	cfg = simConfig(a, plan.Footprint, 6)
	if _, err := Run(context.Background(), cfg, a); err == nil || !strings.Contains(err.Error(), "give --budget 7") || strings.Contains(err.Error(), "\n") || len(a.runs) != 0 {
		t.Errorf("budget 6 with a soak: %v after %d trials; want one line asking for 7, before any trial", err, len(a.runs))
	}
}

// A profile trial that misses the SLO (on a shared machine, mostly noise)
// runs once more, as a repeat with a key of its own; if that passes, the
// search goes on. Two misses, or a KO of another kind, end the tune.
func TestTuneProfileSLOMissRunsOnceMore(t *testing.T) {
	for _, c := range []struct {
		name   string
		misses int
		kind   trial.Kind
		want   string
		used   int
	}{
		{"noise", 1, trial.KindSLO, Proven, -1},
		{"twice", 2, trial.KindSLO, None, 2},
		{"not-ready", 1, trial.KindNotReady, None, 1},
	} {
		a := footprintApp()
		f := &flakyProfile{simApp: a, misses: c.misses, kind: c.kind}
		r, err := Run(context.Background(), simConfig(a, plan.Footprint, 20), f)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want || c.used > 0 && r.Used() != c.used {
			t.Errorf("%s: verdict %q after %d trials; want %q (%d trials)", c.name, r.Verdict, r.Used(), c.want, c.used)
		}
		if c.kind == trial.KindSLO && (len(f.profiles) != 2 || f.profiles[0].Repeat != 0 || f.profiles[1].Repeat != 1) {
			t.Errorf("%s: profile trials %+v; want the first and one repeat", c.name, f.profiles)
		}
	}
}

type flakyProfile struct {
	*simApp
	misses   int
	kind     trial.Kind
	profiles []Point
}

func (f *flakyProfile) Run(ctx context.Context, p Point) (Outcome, error) {
	if p.Purpose == PurposeProfile {
		f.profiles = append(f.profiles, p)
		if len(f.profiles) <= f.misses {
			return Outcome{Verdict: trial.KO, Kind: f.kind, P99: 626 * time.Millisecond}, nil
		}
	}
	return f.simApp.Run(ctx, p)
}

// A candidate's first trial is where the launcher's heap holds the whole
// measured live set, not at the floor (3/4 of it), where a measured first
// trial would fail and teach nothing; a pass there lets the bisection go
// down to the floor.
func TestTuneStartsWhereTheHeapHoldsTheLiveSet(t *testing.T) {
	a := footprintApp() // the launcher passes from 101Mi here; the profile's live set is 20Mi
	a.cands[LauncherName] = a.cands["serial-c1"]
	cfg := simConfig(a, plan.Footprint, 12)
	cfg.Planner = func(p Point) (*plan.Plan, error) {
		if p.Candidate != LauncherName || p.Profile == nil {
			return a.planner(p)
		}
		// 80Mi of non-heap, and a heap down to 3/4 of the live set; exec's
		// plan never refuses.
		floor := 80*tmib + int64(float64(p.Profile.LiveHeapBytes)*plan.LiveFloorShare)
		if p.MemoryBytes < floor && !p.Fit {
			return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: floor, Why: "simulated"}
		}
		return &plan.Plan{}, nil
	}
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	var first *Point
	for i := range a.runs {
		if a.runs[i].Candidate == LauncherName && a.runs[i].Purpose == PurposeSearch {
			first = &a.runs[i]
			break
		}
	}
	// The floor is 95Mi (96Mi on the grid), the live set fits from 100Mi
	// (104Mi on the grid).
	if first == nil || first.MemoryBytes != 104*tmib {
		t.Fatalf("the launcher's first trial %+v, want 104Mi (the heap holds the live set), not the 96Mi floor", first)
	}
	for _, c := range r.Candidates {
		if c.Name == LauncherName && (c.MinOKBytes != 104*tmib || c.MaxKOBytes != 96*tmib || c.FloorBytes != 96*tmib) {
			t.Errorf("launcher: lowest OK %d, highest KO %d, floor %d; want 104Mi, 96Mi (bisected down to the floor), 96Mi",
				c.MinOKBytes>>20, c.MaxKOBytes>>20, c.FloorBytes>>20)
		}
	}
}
