package tune

import (
	"context"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// flakySoaks fails the soaks whose repeat is in fail: a rerun that does
// not hold.
type flakySoaks struct {
	*simApp
	fail map[int]bool
}

func (f *flakySoaks) Soak(ctx context.Context, p Point) (Outcome, error) {
	o, err := f.simApp.Soak(ctx, p)
	if err == nil && f.fail[p.Repeat] {
		o = Outcome{Verdict: trial.KO, Kind: trial.KindJavaOOM}
	}
	return o, err
}

// tune --rerun 3: a proven answer is run three more times exactly as its
// soak was (a soak point, at the answer's limit, with the answer's
// options), each with a key of its own (Repeat 1-3) so the store runs a
// fresh JVM rather than reusing the soak; outside the budget. A rerun
// that fails is counted and said, and changes nothing in the answer.
func TestTuneRerunsTheProvenAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		fail map[int]bool
		ok   int
	}{{"all pass", nil, 3}, {"the second fails", map[int]bool{2: true}, 2}} {
		a := &flakySoaks{simApp: footprintApp(), fail: c.fail}
		cfg := simConfig(a.simApp, plan.Footprint, 40)
		cfg.Reruns = 3
		r, err := Run(context.Background(), cfg, a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Proven || len(r.Reruns) != 3 || r.RerunsOK() != c.ok {
			t.Fatalf("%s: %q with %d reruns, %d OK; want proven, 3, %d", c.name, r.Verdict, len(r.Reruns), r.RerunsOK(), c.ok)
		}
		soak := r.Soaks[len(r.Soaks)-1].Point
		for i, rr := range r.Reruns {
			p := rr.Point
			if p.Purpose != PurposeSoak || p.Repeat != i+1 || p.MemoryBytes != r.MemoryBytes || p.Candidate != r.Candidate ||
				p.Soak != soak.Soak || strings.Join(p.Options, " ") != strings.Join(soak.Options, " ") || p.Profile != soak.Profile {
				t.Errorf("%s: rerun %d is %s; want the soak %s, repeat %d", c.name, i+1, p, soak, i+1)
			}
		}
		if len(a.runs) != r.Used()+3 {
			t.Errorf("%s: %d runs for %d trials in the budget and 3 reruns", c.name, len(a.runs), r.Used())
		}
		runCounts(t, a.runs)
		said := strings.Contains(strings.Join(r.Notes, "\n"), "2 of 3 fresh reruns")
		if said != (c.ok == 2) {
			t.Errorf("%s: notes %q", c.name, r.Notes)
		}
	}
	// No rerun of an answer that is not proven, and --rerun needs a soak.
	a := footprintApp()
	a.soakExtra = 100 * tmib
	cfg := simConfig(a, plan.Footprint, 12)
	cfg.Reruns = 3
	if r, err := Run(context.Background(), cfg, a); err != nil || len(r.Reruns) != 0 {
		t.Errorf("a failed proof: %d reruns, %v", len(r.Reruns), err)
	}
	cfg.Soak = 0
	if err := cfg.withDefaults().Validate(); err == nil || !strings.Contains(err.Error(), "--soak") {
		t.Errorf("--rerun with --soak 0: %v", err)
	}
}
