package tune

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// With trials side by side, the hold, the soak and the soak a step up run
// in one round: the answer is the sequential one, the proof takes one
// soak's wall time where the hold passes, and the reruns run together.
func TestTuneProofSideBySide(t *testing.T) {
	cases := []struct {
		name            string
		long, soakExtra int64
	}{
		{"hold and soak pass", 0, 0},
		{"the soak fails a step", 0, 8 * tmib},
		{"the hold fails and climbs", 12 * tmib, 0},
		{"both", 12 * tmib, 8 * tmib},
	}
	for _, c := range cases {
		seqApp := footprintApp()
		seqApp.longExtra, seqApp.soakExtra = c.long, c.soakExtra
		seqCfg := simConfig(seqApp, plan.Footprint, 60)
		seqCfg.Reruns = 3
		seq, err := Run(context.Background(), seqCfg, seqApp)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 8; n++ {
			a := &batchApp{simApp: footprintApp()}
			a.longExtra, a.soakExtra = c.long, c.soakExtra
			cfg := simConfig(a.simApp, plan.Footprint, 60)
			cfg.Parallel, cfg.Reruns = n, 3
			r, err := Run(context.Background(), cfg, a)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != seq.Verdict || r.MemoryBytes != seq.MemoryBytes || r.Candidate != seq.Candidate || len(r.Reruns) != 3 {
				t.Fatalf("%s, N=%d: %s %s at %d MiB with %d reruns; one at a time %s %s at %d MiB\n%s", c.name, n, r.Verdict, r.Candidate,
					r.MemoryBytes/tmib, len(r.Reruns), seq.Verdict, seq.Candidate, seq.MemoryBytes/tmib, searchLog(r))
			}
			last := a.runs[len(a.runs)-3:]
			for i, p := range last {
				if p.Purpose != PurposeSoak || p.Repeat != i+1 {
					t.Errorf("%s, N=%d: run %s where rerun %d was due", c.name, n, p, i+1)
				}
			}
			if c.long == 0 && c.soakExtra == 0 {
				// One round for the hold and up to two soaks (N-1 of them).
				soaks := 0
				for _, tr := range r.Trials {
					if tr.Point.Soak > 0 {
						soaks++
					}
				}
				if soaks != min(n, 3) || len(r.Soaks) != 1 {
					t.Errorf("N=%d: %d trials as long as the soak, %d soaks counted; want the hold and %d soak(s) run at once, the first soak the proof", n, soaks, len(r.Soaks), min(n, 3)-1)
				}
			}
		}
	}
}
