package tune

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// leanApp is a fake whose trials pass by the heap the real launcher plans:
// a JVM holds a limit when its heap holds the live set and the heap, its
// candidate's true non-heap and a little kernel memory fit under it.
type leanApp struct {
	planner Planner
	live    int64
	nonHeap map[string]int64 // by candidate; def for the others
	def     int64
	// unseen is memory of a candidate's that its profile does not measure
	// (filecache's page cache): the planner sizes the heap as if it were
	// free.
	unseen map[string]int64
	// soakLive, when set, is the live set of a trial as long as the soak:
	// a heap under it that passed the search runs out in the hold.
	soakLive int64
	runs     []Point
}

// profileOf is what a trial of a JVM with non-heap n measures: the
// defaults' at the profile trial, the candidate's own after.
func (a *leanApp) profileOf(name string, n int64) *plan.Profile {
	meta, code := n*4/10, n*15/100
	return &plan.Profile{Version: 1, App: name, LiveHeapBytes: a.live, MetaspaceUsedBytes: meta,
		ClassSpaceUsedBytes: meta / 6, CodeCacheUsedBytes: code, PeakThreads: 30, PeakJavaThreads: 25,
		PeakUncappedNativeBytes: n - meta - code, LoadedClasses: 12000}
}

func (a *leanApp) Run(ctx context.Context, p Point) (Outcome, error) {
	a.runs = append(a.runs, p)
	switch p.Purpose {
	case PurposeProfile:
		return Outcome{Verdict: trial.OK, P99: 5 * time.Millisecond, StartSeconds: 3, PeakBytes: 300 * tmib,
			Profile: a.profileOf("", 130*tmib)}, nil
	case PurposeTraining:
		return Outcome{Verdict: trial.OK, StartSeconds: 3}, nil
	}
	return a.judge(p), nil
}

// tune runs a footprint tune on a at budget 24 with the real planner and
// returns its result and the launcher's edge.
func (a *leanApp) tune(t *testing.T) (*Result, *CandidateResult) {
	t.Helper()
	cfg := Config{CPUs: 1, Goal: plan.Footprint, Budget: 24, Soak: time.Minute, JDK: 17, ArchiveDir: t.TempDir(),
		Planner: a.planner, Remeasure: true}
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	inc := candidateResult(r, LauncherName)
	if inc == nil || inc.MinOKBytes == 0 {
		t.Fatalf("the launcher found no edge\n%s", searchLog(r))
	}
	return r, inc
}

func (a *leanApp) Soak(ctx context.Context, p Point) (Outcome, error) { return a.Run(ctx, p) }

func (a *leanApp) trueNonHeap(name string) int64 {
	if n, ok := a.nonHeap[name]; ok {
		return n
	}
	return a.def
}

// heapOf is the -Xmx the JVM of point p runs with: the last on its
// command line, the launcher's plan followed by the candidate's options.
func (a *leanApp) heapOf(p Point) int64 {
	pl, err := a.planner(p)
	if err != nil {
		return 0
	}
	var h int64
	for _, o := range join(pl.Options, p.Options) {
		if v, ok := strings.CutPrefix(o, "-Xmx"); ok {
			h, _ = size.Parse(v)
		}
	}
	return h
}

func (a *leanApp) judge(p Point) Outcome {
	h, n := a.heapOf(p), a.trueNonHeap(p.Candidate)
	switch {
	case h < a.live, p.Soak > 0 && h < a.soakLive:
		return Outcome{Verdict: trial.KO, Kind: trial.KindJavaOOM, StartSeconds: 3}
	case h+n+2*tmib > p.MemoryBytes:
		return Outcome{Verdict: trial.KO, Kind: trial.KindOOMKilled, StartSeconds: 3}
	}
	o := Outcome{Verdict: trial.OK, P99: 20 * time.Millisecond, StartSeconds: 3, PeakBytes: h + n}
	if p.Measure {
		o.Profile = a.profileOf(p.Candidate, n-a.unseen[p.Candidate])
	}
	return o
}

// A challenger at the incumbent's edge less a step runs the heap the
// incumbent held there, so its trial asks whether its own non-heap is a
// step smaller. Planned from the JDK defaults' profile (130 MiB of
// non-heap against the C1 JVMs' 80 to 96), the lazy JIT, 12 MiB leaner
// than the launcher's JVM, was given a heap that did not fit beside its
// non-heap, or under the live set, and was dropped at the first try: the
// answer stayed at the launcher's edge.
func TestChallengerRunsTheIncumbentsHeap(t *testing.T) {
	a := &leanApp{planner: LauncherPlanner(17, plan.Footprint), live: 40 * tmib,
		nonHeap: map[string]int64{LauncherName: 96 * tmib, "serial-c1-lazyjit": 84 * tmib}, def: 100 * tmib}
	r, inc := a.tune(t)
	if r.Verdict != Proven || r.Trials[r.Chosen].Point.Candidate != "serial-c1-lazyjit" || r.MemoryBytes >= inc.MinOKBytes {
		t.Fatalf("%q %s at %s, the launcher's edge %s: want serial-c1-lazyjit proven below it\n%s",
			r.Verdict, r.Trials[r.Chosen].Point.Candidate, size.Format(r.MemoryBytes), size.Format(inc.MinOKBytes), searchLog(r))
	}
	// Every challenge ran the launcher's heap at its edge; the heap
	// variant kept its own.
	want := a.heapOf(r.Trials[bestOf(r, LauncherName)].Point)
	for _, p := range a.runs {
		if p.Purpose != PurposeSearch || p.MemoryBytes != inc.MinOKBytes-8*tmib || p.Candidate == LauncherName || strings.HasPrefix(p.Candidate, LauncherName) {
			continue
		}
		h := a.heapOf(p)
		if strings.Contains(p.Candidate, "-heap") {
			if h == want {
				t.Errorf("%s ran the launcher's heap %s: a heap variant keeps its own", p.Candidate, size.Format(h))
			}
			continue
		}
		if h != want {
			t.Errorf("%s at %s ran a heap of %s, want the launcher's %s", p.Candidate, size.Format(p.MemoryBytes), size.Format(h), size.Format(want))
		}
	}
	if r.Used() > 24 {
		t.Errorf("used %d trials", r.Used())
	}
}

// bestOf is the index of the lowest OK search trial of candidate name.
func bestOf(r *Result, name string) int {
	best := -1
	for i, t := range r.Trials {
		if t.Point.Purpose == PurposeSearch && t.Point.Candidate == name && t.Outcome.Verdict == trial.OK &&
			(best < 0 || t.Point.MemoryBytes < r.Trials[best].Point.MemoryBytes) {
			best = i
		}
	}
	return best
}

// Below a challenger's pass, its trials run the heap the pass ran. The
// lazy JIT's profile here misses 24 MiB it needs (filecache's page
// cache), so its own plan a step lower gives the heap that room and the
// kernel kills it; with the heap that held, it holds two steps under the
// launcher's edge.
func TestWinnerKeepsTheHeapThatHeld(t *testing.T) {
	a := &leanApp{planner: LauncherPlanner(17, plan.Footprint), live: 40 * tmib,
		nonHeap: map[string]int64{LauncherName: 96 * tmib, "serial-c1-lazyjit": 80 * tmib}, def: 100 * tmib,
		unseen: map[string]int64{"serial-c1-lazyjit": 24 * tmib}}
	r, inc := a.tune(t)
	if r.Verdict != Proven || r.Trials[r.Chosen].Point.Candidate != "serial-c1-lazyjit" || r.MemoryBytes > inc.MinOKBytes-16*tmib {
		t.Fatalf("%q %s at %s, the launcher's edge %s: want serial-c1-lazyjit proven two steps below it\n%s",
			r.Verdict, r.Trials[r.Chosen].Point.Candidate, size.Format(r.MemoryBytes), size.Format(inc.MinOKBytes), searchLog(r))
	}
	held := int64(0)
	for _, p := range a.runs {
		if p.Purpose != PurposeSearch || p.Candidate != "serial-c1-lazyjit" {
			continue
		}
		h := a.heapOf(p)
		if held > 0 && h != held {
			t.Errorf("serial-c1-lazyjit at %s ran a heap of %s, not the %s that held above it", size.Format(p.MemoryBytes), size.Format(h), size.Format(held))
		}
		if held == 0 && a.judge(p).Verdict == trial.OK {
			held = h
		}
	}
}

// A failed hold climbs only where more limit can change the outcome: a
// point that runs a challenge's heap keeps it at every limit, so only the
// kernel's kill or a stall can give way to a step up.
func TestHoldWithAChallengeHeapClimbsOnlyOnTheKernelsKinds(t *testing.T) {
	lazy := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-c1-lazyjit", Options: []string{"-XX:+UseSerialGC"}}}}
	variant := &cand{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-c1-heap1.5x", Options: []string{"-Xmx30m"}}}}
	challenge := Point{Options: challengeOptions(lazy, lazy.Options, 54*tmib)}
	for _, c := range []struct {
		c    *cand
		p    Point
		kind trial.Kind
		want bool
	}{
		{lazy, challenge, trial.KindSLO, false},
		{lazy, challenge, trial.KindJavaOOM, false},
		{lazy, challenge, trial.KindOOMKilled, true},
		{lazy, challenge, trial.KindMemoryStall, true},
		{lazy, Point{Options: lazy.Options}, trial.KindSLO, true}, // its own plan's heap grows with the limit
		{variant, Point{Options: variant.Options}, trial.KindSLO, true},
	} {
		if got := limitCanHelp(c.c, c.p, c.kind); got != c.want {
			t.Errorf("%s %v failed on %s: climbs %v, want %v", c.c.Name, c.p.Options, c.kind, got, c.want)
		}
	}
}

// A hold of a challenge's heap that ran out of Java heap, the rest of
// the JVM fitting, climbs a step with the step given to the heap: here
// the launcher's heap at its edge passes 15 s trials and is 2 MiB short
// for the soak. Without the rule the lazy JIT's holds fail one by one
// with the heap they inherited, and the answer climbs back to the
// launcher's own edge or above.
func TestHeapShortForTheSoakClimbsWithTheStep(t *testing.T) {
	a := &leanApp{planner: LauncherPlanner(17, plan.Footprint), live: 40 * tmib,
		nonHeap: map[string]int64{LauncherName: 96 * tmib, "serial-c1-lazyjit": 76 * tmib}, def: 100 * tmib}
	probe, inc := a.tune(t)
	h := a.heapOf(probe.Trials[bestOf(probe, LauncherName)].Point)
	a = &leanApp{planner: a.planner, live: a.live, nonHeap: a.nonHeap, def: a.def, soakLive: h + 2*tmib}
	r, _ := a.tune(t)
	if r.Verdict != Proven || r.MemoryBytes >= inc.MinOKBytes {
		t.Fatalf("%q at %s, the launcher's edge %s: want the lazy JIT proven below it\n%s", r.Verdict, size.Format(r.MemoryBytes), size.Format(inc.MinOKBytes), searchLog(r))
	}
	got := a.heapOf(r.Trials[r.Chosen].Point)
	if r.Trials[r.Chosen].Point.Candidate != "serial-c1-lazyjit" || got != h+8*tmib {
		t.Errorf("answer %s with -Xmx%s, want serial-c1-lazyjit with the challenge's heap and a step, %s\n%s",
			r.Trials[r.Chosen].Point.Candidate, size.JVM(got), size.JVM(h+8*tmib), searchLog(r))
	}
}
