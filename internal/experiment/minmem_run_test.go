package experiment

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A limit the planner refuses is no trial: it is not run, stored, counted
// or repeated; the search moves to the planner's floor on the grid (90Mi
// rounds up to 96Mi on the 8Mi grid). Once the app passed there, it tries
// the planner's own smallest limit, 90Mi, off the grid: the app fails
// there, so the highest KO is a real trial (issue 13), repeated as any KO.
func TestMinMemRefusalIsNoTrial(t *testing.T) {
	st := openStore(t)
	f := &fake{okAt: map[string]int64{"jvmfit:footprint": 96 * mi}}
	s := newSession(t, st, f, store.KindMinMem)
	var progress bytes.Buffer
	s.Progress = &progress
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"jvmfit:footprint"}, Search: DefaultSearch}
	res, err := p.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	o := res[0].Outcome
	if o.MinOK != 96*mi || o.MaxKO != 90*mi || o.Floor != 96*mi || o.Precision != 6*mi {
		t.Fatalf("min OK %s, max KO %s, floor %s, precision %s; want 96Mi, 90Mi (a trial at the planner's smallest limit), 96Mi, 6Mi",
			size.Format(o.MinOK), size.Format(o.MaxKO), size.Format(o.Floor), size.Format(o.Precision))
	}
	if strings.Contains(o.Note, "the planner's floor") {
		t.Errorf("the boundary is the app's, yet the note says: %s", o.Note)
	}
	rs := stored(t, st, s)
	if len(o.Trials) != 4 || len(f.ran()) != 4 || len(rs) != 4 {
		t.Fatalf("%d trials, %d run, %d stored; want two runs at 96Mi and two at 90Mi", len(o.Trials), len(f.ran()), len(rs))
	}
	for _, r := range rs {
		if m := r.Spec.MemoryBytes; m != 96*mi && m != 90*mi || r.StartSeconds == 0 {
			t.Errorf("stored trial at %s, %gs start", size.Format(r.Spec.MemoryBytes), r.StartSeconds)
		}
	}
	if n := strings.Count(progress.String(), "refused by the planner"); n != 1 {
		t.Errorf("%d refusals in the progress, want the one that found the floor:\n%s", n, progress.String())
	}
	if n := len(res[0].Outcome.Trials); n != 4 {
		t.Errorf("the search holds %d trials, want 4: refusals are not trials", n)
	}
}

// When the app passes even at the planner's smallest limit, that is the
// answer and the note says the boundary is the planner's, naming the mode
// as the user wrote it; the floor is an edge: nothing below it is known to
// hold.
func TestMinMemPassesAtThePlannersSmallestLimit(t *testing.T) {
	st := openStore(t)
	f := &fake{okAt: map[string]int64{"jvmfit:footprint": 64 * mi}}
	s := newSession(t, st, f, store.KindMinMem)
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"jvmfit:footprint"}, Search: DefaultSearch}
	res, err := p.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	o := res[0].Outcome
	if o.MinOK != 90*mi || o.MaxKO != 0 || o.Floor != 96*mi || o.Precision != 8*mi {
		t.Fatalf("min OK %s, max KO %s, floor %s, precision %s; want 90Mi, none, 96Mi, 8Mi",
			size.Format(o.MinOK), size.Format(o.MaxKO), size.Format(o.Floor), size.Format(o.Precision))
	}
	for _, want := range []string{"the planner's floor", "--jvm jvmfit:footprint:", "passed at 90Mi, the smallest limit it accepts"} {
		if !strings.Contains(o.Note, want) {
			t.Errorf("note lacks %q: %s", want, o.Note)
		}
	}
	if strings.Contains(o.Note, "--jvm jvmfit: ") {
		t.Errorf("note names the mode as jvmfit: %s", o.Note)
	}
	if got := len(f.ran()); got != 4 {
		t.Errorf("%d trials run, want 96Mi and 90Mi twice each", got)
	}
	rec, err := Recommend(Candidates(res), nil)
	if err != nil || rec.Tested || rec.MemoryBytes <= 90*mi {
		t.Fatalf("recommendation %+v, %v; want an untested one above 90Mi (an edge: a margin is added)", rec, err)
	}
}

// When the app fails at the floor, the search goes on above it as usual
// and never asks for a refused limit again.
func TestMinMemAboveTheFloor(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	s := newSession(t, st, f, store.KindMinMem)
	res, err := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"jvmfit"}, Search: DefaultSearch}.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	o := res[0].Outcome
	if o.MinOK != 144*mi || o.MaxKO != 136*mi || o.Floor != 96*mi || o.Note != "" {
		t.Fatalf("min OK %s, max KO %s, floor %s, note %q", size.Format(o.MinOK), size.Format(o.MaxKO), size.Format(o.Floor), o.Note)
	}
	for _, r := range stored(t, st, s) {
		if r.Spec.MemoryBytes < 96*mi {
			t.Errorf("a trial at %s, below the floor", size.Format(r.Spec.MemoryBytes))
		}
	}
}

// A planner that refuses every limit in the range: no trial at all, and a
// note that says so; the top of the range is refused before anything runs.
func TestMinMemPlannerRefusesTheRange(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	s := newSession(t, st, f, store.KindMinMem)
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"jvmfit:footprint"}, Search: Search{Min: 32 * mi, Max: 80 * mi, Step: 16 * mi}}
	_, err := p.Run(context.Background(), s)
	var pe *PrepareError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "--jvm jvmfit:footprint: the planner refuses a 80Mi limit") || len(f.ran()) != 0 {
		t.Fatalf("err %v, %d run", err, len(f.ran()))
	}
	out, err := MinMem(context.Background(), p.Search, p.trialAt(s, 1, "jvmfit:footprint"))
	if err != nil || len(out.Trials) != 0 || out.MinOK != 0 || !strings.Contains(out.Note, "the planner refuses every limit up to --max 80Mi") {
		t.Fatalf("outcome %+v, %v", out, err)
	}
}

// Only the planner's refusal is free: any other error preparing a limit
// (a JDK gone, an option file deleted mid-run) stops the search, and
// nothing is stored.
func TestMinMemPrepareErrorIsNotRefused(t *testing.T) {
	st := openStore(t)
	s := newSession(t, st, &fake{}, store.KindMinMem)
	s.Prepare = func(sp trial.Spec) (trial.Spec, error) {
		if sp.MemoryBytes < 1*size.GiB {
			return sp, errors.New("java vanished")
		}
		return fakePrepare(sp)
	}
	_, err := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"jvmfit"}, Search: DefaultSearch}.Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "java vanished") || len(stored(t, st, s)) != 0 {
		t.Fatalf("err = %v, %d stored; want the prepare error and nothing stored", err, len(stored(t, st, s)))
	}
}

// A planner that refuses a limit above one it planned (its rules are not
// monotone: C2 comes in above 300 MiB) cannot bound the search: it stops
// with the refusal instead of reading it as the edge.
func TestMinMemRefusalAboveAPlannedLimit(t *testing.T) {
	fn := func(_ context.Context, mem int64) (*trial.Result, error) {
		if mem == 128*mi {
			return nil, &RefusedLimit{JVM: "jvmfit", LimitBytes: mem, Planner: &plan.RefusedError{LimitBytes: mem, MinBytes: 130 * mi, Why: "code cache"}}
		}
		return &trial.Result{Verdict: trial.KO}, nil
	}
	out, err := MinMem(context.Background(), DefaultSearch, fn)
	var ref *RefusedLimit
	if !errors.As(err, &ref) || !strings.Contains(err.Error(), "yet it planned 64Mi") || len(out.Trials) != 1 {
		t.Fatalf("err %v, %d trials", err, len(out.Trials))
	}
}
