package tune

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// highFloorApp is an app whose first profile (the JDK's defaults) makes
// the launcher accept every candidate only well above its true minimum,
// as filecache's did (C2's arenas in the measured native); the profile
// measured under a candidate's own options brings its floor 4 MiB below
// its minimum.
func highFloorApp() *simApp {
	a := footprintApp()
	for n, c := range a.cands {
		c.floorBelow = -20 * tmib
		a.cands[n] = c
	}
	a.def.floorBelow = -20 * tmib
	a.ownBelow = 4 * tmib
	return a
}

func remeasureConfig(a *simApp, budget int) Config {
	cfg := simConfig(a, plan.Footprint, budget)
	cfg.Remeasure = true
	return cfg
}

// Closing the loop: each candidate measures under its own options until a
// trial passes, the launcher then plans it with that profile, and the
// search bisects below the first floor to the true minimum; the soak and
// the answer carry the chosen candidate's own profile.
func TestTuneRemeasureGoesBelowTheFirstFloor(t *testing.T) {
	open := highFloorApp()
	r, err := Run(context.Background(), remeasureConfig(open, 40), open)
	if err != nil {
		t.Fatal(err)
	}
	step := Default.Step
	best := open.cands["serial-c1-noshare"].min
	if r.Candidate != "serial-c1-noshare" || r.MemoryBytes < best || r.MemoryBytes-best >= step || r.Verdict != Proven {
		t.Fatalf("answer %s at %s (%s); want serial-c1-noshare proven within a step above %s\n%s",
			r.Candidate, size.Format(r.MemoryBytes), r.Verdict, size.Format(best), searchLog(r))
	}
	firstFloor := (best + 20*tmib + step - 1) / step * step
	if r.MemoryBytes >= firstFloor {
		t.Errorf("answer %s is not below the first floor %s", size.Format(r.MemoryBytes), size.Format(firstFloor))
	}
	if r.Used() > 40 {
		t.Errorf("%d trials over the budget of 40", r.Used())
	}
	// A candidate measures until it passes, and not after.
	passed := map[string]bool{}
	for _, tr := range r.Trials {
		p := tr.Point
		if p.Purpose != PurposeSearch {
			if p.Measure {
				t.Errorf("%s is measured", p)
			}
			continue
		}
		if p.Measure == passed[p.Candidate] {
			t.Errorf("%s: measured %v after passing %v", p, p.Measure, passed[p.Candidate])
		}
		if passed[p.Candidate] && (p.Profile == nil || p.Profile.App != p.Candidate) {
			t.Errorf("%s: planned without the candidate's own profile", p)
		}
		if tr.Outcome.Verdict == "OK" {
			passed[p.Candidate] = true
		}
	}
	soak := r.Soaks[len(r.Soaks)-1].Point
	if soak.Profile == nil || soak.Profile.App != r.Candidate || r.Profile != soak.Profile || soak.Measure {
		t.Errorf("soak %s with profile %+v, answer profile %+v; want the chosen candidate's own", soak, soak.Profile, r.Profile)
	}

	// Without the loop the first floors are still predictions, not walls:
	// trials below them, planned as exec plans, find the same edge.
	closed := highFloorApp()
	c, err := Run(context.Background(), simConfig(closed, plan.Footprint, 40), closed)
	if err != nil {
		t.Fatal(err)
	}
	if c.MemoryBytes != r.MemoryBytes || c.Verdict != Proven {
		t.Errorf("without remeasuring: %s at %s (%s); with: %s", c.Candidate, size.Format(c.MemoryBytes), c.Verdict, size.Format(r.MemoryBytes))
	}
}

// An interrupted remeasuring tune resumes to the same answer with no
// trial run twice: a measured trial is stored like any other, and its
// profile comes back with it.
func TestTuneRemeasureResumes(t *testing.T) {
	fresh := highFloorApp()
	want, err := Run(context.Background(), remeasureConfig(fresh, 30), fresh)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 5, len(fresh.runs) / 2, len(fresh.runs) - 1} {
		a := highFloorApp()
		a.stopAfter = k
		st := &storedTrials{app: a, stored: map[string]Outcome{}}
		if _, err := Run(context.Background(), remeasureConfig(a, 30), st); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted at %d: %v", k, err)
		}
		a.stopAfter = 0
		got, err := Run(context.Background(), remeasureConfig(a, 30), st)
		if err != nil {
			t.Fatal(err)
		}
		runCounts(t, a.runs)
		if got.Candidate != want.Candidate || got.MemoryBytes != want.MemoryBytes || got.Used() != want.Used() ||
			got.Profile == nil || got.Profile.App != want.Profile.App {
			t.Errorf("interrupted at %d: %s at %s in %d; uninterrupted %s at %s in %d", k, got.Candidate, size.Format(got.MemoryBytes), got.Used(),
				want.Candidate, size.Format(want.MemoryBytes), want.Used())
		}
	}
}

// heapApp passes when the launcher's heap is at least need; the launcher
// leaves the heap whatever the non-heap does not take, and the non-heap
// the first profile plans is 10 MiB larger than the candidate's own
// profile's (the defaults' C2 arenas).
type heapApp struct {
	need int64
	runs []Point
}

func (a *heapApp) nonHeap(p Point) int64 {
	if p.Profile != nil && p.Profile.App == p.Candidate {
		return 90 * tmib
	}
	return 100 * tmib
}

func (a *heapApp) planner(p Point) (*plan.Plan, error) {
	floor := a.nonHeap(p) + 16*tmib // a simulated heap floor (the launcher's is 3/4 of the live set)
	if p.MemoryBytes < floor {
		return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: floor, Why: "simulated"}
	}
	h := p.MemoryBytes - a.nonHeap(p)
	return &plan.Plan{Options: []string{"-Xmx" + size.JVM(h)}, Regions: []plan.Region{{Name: plan.RegHeap, Bytes: h}}}, nil
}

func (a *heapApp) Run(ctx context.Context, p Point) (Outcome, error) {
	a.runs = append(a.runs, p)
	if p.Purpose == PurposeProfile {
		return Outcome{Verdict: "OK", P99: time.Millisecond, StartSeconds: 3, Profile: &plan.Profile{Version: 1, LiveHeapBytes: 16 * tmib}}, nil
	}
	pl, err := a.planner(p)
	if err != nil || pl.HeapBytes() < a.need {
		return Outcome{Verdict: "KO", Kind: "slo", StartSeconds: 3}, nil
	}
	o := Outcome{Verdict: "OK", P99: time.Millisecond, StartSeconds: 3}
	if p.Measure {
		o.Profile = &plan.Profile{Version: 1, App: p.Candidate, LiveHeapBytes: 16 * tmib}
	}
	return o, nil
}

func (a *heapApp) Soak(ctx context.Context, p Point) (Outcome, error) { return a.Run(ctx, p) }

// A KO under the first profile's plan does not bound a candidate whose
// own profile gives the heap more at that limit: the search tries it
// again and finds the minimum the candidate's plan really has.
func TestTuneRemeasureRetriesKOsOfTheFirstPlan(t *testing.T) {
	a := &heapApp{need: 22 * tmib}
	cfg := Config{CPUs: 1, Goal: plan.Footprint, Budget: 40, Soak: time.Minute, JDK: 17, ArchiveDir: "/tmp/tune-archives",
		Planner: a.planner, Remeasure: true}
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	// Own plan: heap = limit − 90 MiB ≥ 22 MiB from 112 MiB; the first
	// plan needed 122 MiB, 128 on the grid.
	if r.MemoryBytes != 112*tmib || r.Verdict != Proven {
		t.Fatalf("answer %s (%s); want 112Mi proven\n%s", size.Format(r.MemoryBytes), r.Verdict, searchLog(r))
	}
	ko120 := false
	for _, tr := range r.Trials {
		if tr.Point.Candidate == r.Candidate && tr.Point.MemoryBytes == 120*tmib && tr.Outcome.Verdict != "OK" {
			ko120 = true
		}
	}
	if !ko120 {
		t.Errorf("%s never failed at 120Mi under the first plan: the test does not exercise the retry\n%s", r.Candidate, searchLog(r))
	}
}
