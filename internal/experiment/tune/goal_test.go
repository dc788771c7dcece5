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

// edgeApp is catalog's trade-off in small: serial-c1 holds the SLO from
// 256Mi but with a p99 of 426 ms below 280Mi; parallel-c1 needs 296Mi and
// answers in about 30 ms. Every other candidate needs 400Mi.
func edgeApp() *simApp {
	ms := time.Millisecond
	return &simApp{cands: map[string]simCand{
		"serial-c1":   {min: 256 * tmib, p99: 60 * ms, start: 15, floorBelow: 16 * tmib, edge: 24 * tmib, edgeP99: 426 * ms},
		"parallel-c1": {min: 296 * tmib, p99: 20 * ms, start: 14, floorBelow: 16 * tmib},
	}, def: simCand{min: 400 * tmib, p99: 40 * ms, start: 15, floorBelow: 16 * tmib}}
}

// chosenTrial is the search trial the result chose.
func chosenTrial(t *testing.T, r *Result) Trial {
	t.Helper()
	if r.Chosen < 0 {
		t.Fatalf("nothing chosen\n%s", searchLog(r))
	}
	return r.Trials[r.Chosen]
}

// Footprint answers with the smallest limit at which the SLO held, even
// when a larger limit has a p99 fourteen times lower: the weighted cost
// (memory 1.0, p99 0.1) would take 296Mi, as it did on catalog.
func TestTuneFootprintTakesTheSmallestOKLimit(t *testing.T) {
	a := edgeApp()
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	c := chosenTrial(t, r)
	if c.Point.MemoryBytes != 256*tmib || r.Candidate != "serial-c1" || r.MemoryBytes != 256*tmib || r.Verdict != Proven {
		t.Fatalf("answer %s at %s (%s), chosen search point %s; want serial-c1 proven at 256Mi\n%s",
			r.Candidate, size.Format(r.MemoryBytes), r.Verdict, c.Point, searchLog(r))
	}
	// No OK search trial is smaller, and the trade-off it declined is on
	// the front: a larger limit with a lower p99.
	traded := false
	for _, tr := range r.Trials {
		if tr.Point.Purpose == PurposeSearch && tr.Outcome.Verdict == trial.OK && tr.Point.MemoryBytes < c.Point.MemoryBytes {
			t.Errorf("OK search trial %s is below the answer", tr.Point)
		}
	}
	for _, i := range r.Front {
		f := r.Trials[i]
		if f.Point.MemoryBytes > c.Point.MemoryBytes && f.Outcome.P99 < c.Outcome.P99 {
			traded = true
		}
	}
	if !traded {
		t.Errorf("the front shows no larger limit with a lower p99: the test does not test the choice\n%s", searchLog(r))
	}
	// The cost alone prefers the larger point: that is what footprint
	// must not follow.
	s := &searcher{w: GoalWeights[plan.Footprint], ref: r.Trials[0].Outcome, cfg: simConfig(a, plan.Footprint, 40).withDefaults(), res: r}
	for _, i := range r.Front {
		if f := r.Trials[i]; f.Point.Candidate == "parallel-c1" && s.cost(f) >= s.cost(c) {
			t.Errorf("parallel-c1 at %s costs %.3f, the answer %.3f: the case no longer separates the rules", size.Format(f.Point.MemoryBytes), s.cost(f), s.cost(c))
		}
	}
}

// Balanced keeps trading: on the same app it pays 40Mi for a p99 about
// fourteen times lower.
func TestTuneBalancedStillTrades(t *testing.T) {
	a := edgeApp()
	r, err := Run(context.Background(), simConfig(a, plan.Balanced, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	c := chosenTrial(t, r)
	if r.Candidate != "parallel-c1" || c.Point.MemoryBytes != 296*tmib || r.Verdict != Proven {
		t.Fatalf("answer %s at %s (%s); want parallel-c1 proven at 296Mi\n%s", r.Candidate, size.Format(r.MemoryBytes), r.Verdict, searchLog(r))
	}
	// serial-c1, tried at the incumbent's edge, lost there on the cost.
	if c := candidateResult(r, "serial-c1"); c == nil || c.Trials == 0 || !strings.Contains(c.Dropped, "costs more for the balanced goal") {
		t.Errorf("serial-c1: %+v; want tried and dropped for its cost\n%s", c, searchLog(r))
	}
}

// A point that held only by luck at the edge: footprint chooses it, the
// soak fails there, and the proof raises the limit a grid step; the notes
// say why the answer is above the chosen point.
func TestTuneFootprintSoakPushesTheEdgeUp(t *testing.T) {
	a := edgeApp()
	a.soakExtra = 4 * tmib
	r, err := Run(context.Background(), simConfig(a, plan.Footprint, 40), a)
	if err != nil {
		t.Fatal(err)
	}
	if c := chosenTrial(t, r); c.Point.MemoryBytes != 256*tmib || r.MemoryBytes != 264*tmib || r.Verdict != Proven || len(r.Soaks) != 2 {
		t.Fatalf("chosen %s, answer %s (%s) after %d soaks; want 256Mi chosen, proven at 264Mi by the second soak\n%s",
			c.Point, size.Format(r.MemoryBytes), r.Verdict, len(r.Soaks), searchLog(r))
	}
	notes := strings.Join(r.Notes, "\n")
	for _, want := range []string{"the soak at 256Mi failed", "the answer is 264Mi, 1 grid step(s) above the chosen search point's 256Mi"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func TestTuneBetter(t *testing.T) {
	for _, c := range []struct {
		goal        string
		aMem, bMem  int64
		aCost, bCst float64
		want        bool
	}{
		{plan.Footprint, 256, 296, 0.5, -0.1, true},  // smaller limit wins whatever the cost
		{plan.Footprint, 296, 256, -0.1, 0.5, false}, // and the larger never does
		{plan.Footprint, 256, 256, 0.1, 0.2, true},   // same limit: the lower cost
		{plan.Footprint, 256, 256, 0.2, 0.2, false},  // a full tie keeps the earlier
		{plan.Balanced, 256, 296, 0.5, -0.1, false},  // balanced trades
		{plan.Balanced, 296, 256, -0.1, 0.5, true},
		{plan.Balanced, 256, 296, 0.2, 0.2, true}, // equal cost: the smaller limit
		{plan.Throughput, 296, 256, -0.1, 0.5, true},
	} {
		if got := better(c.goal, c.aMem, c.aCost, c.bMem, c.bCst); got != c.want {
			t.Errorf("%s: %d at cost %.2f better than %d at %.2f: %v, want %v", c.goal, c.aMem, c.aCost, c.bMem, c.bCst, got, c.want)
		}
	}
}

// Footprint keeps the candidate that reaches the smallest limit, however
// close to the SLO its p99 is there: serial-c1 passes from 248Mi at a p99
// of 426 ms, the others from 304Mi at about 7 ms, and its planned floor
// (270Mi) is above its edge, so only a trial below the floor finds it.
func TestTuneFootprintKeepsTheSmallest(t *testing.T) {
	ms := time.Millisecond
	a := &simApp{cands: map[string]simCand{
		"serial-c1": {min: 245 * tmib, p99: 60 * ms, start: 15, floorBelow: -25 * tmib, edge: 40 * tmib, edgeP99: 426 * ms},
	}, def: simCand{min: 300 * tmib, p99: 5 * ms, start: 15, floorBelow: -20 * tmib}, ownBelow: 4 * tmib}
	cfg := simConfig(a, plan.Footprint, 40)
	cfg.Remeasure = true
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	if r.Candidate != "serial-c1" || r.MemoryBytes != 248*tmib || r.Verdict != Proven {
		t.Fatalf("answer %s at %s (%s); want serial-c1 proven at 248Mi\n%s", r.Candidate, size.Format(r.MemoryBytes), r.Verdict, searchLog(r))
	}
}
