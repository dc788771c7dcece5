package main

import (
	"testing"
	"time"
)

// The replay's goal, on the figures of filecache's bench run (a trial
// 20.25 s, 15 s more as long as the soak, the launcher's edge 112Mi): at
// 8 side by side tune finds the sequential answer in at most 0.3 of its
// wall time, at the bench's budget and at 8 more. The wall time is the
// replay's (a round takes its longest trial), not this machine's.
func TestEightSideBySideUnderThreeTenths(t *testing.T) {
	short, long := 20250*time.Millisecond, 35250*time.Millisecond
	for _, b := range []int{24, 32} {
		seq, seqApp, err := replay(short, long, 112*mib, b, 1)
		if err != nil {
			t.Fatal(err)
		}
		par, parApp, err := replay(short, long, 112*mib, b, 8)
		if err != nil {
			t.Fatal(err)
		}
		if par.MemoryBytes != seq.MemoryBytes || par.Candidate != seq.Candidate || par.Verdict != seq.Verdict {
			t.Errorf("budget %d: at 8 %s %s at %d MiB, one at a time %s %s at %d MiB", b,
				par.Verdict, par.Candidate, par.MemoryBytes/mib, seq.Verdict, seq.Candidate, seq.MemoryBytes/mib)
		}
		ratio := parApp.wall.Seconds() / seqApp.wall.Seconds()
		t.Logf("budget %d: %v in %d rounds against %v in %d", b, parApp.wall, parApp.rounds, seqApp.wall, seqApp.rounds)
		if ratio > 0.3 {
			t.Errorf("budget %d: at 8 side by side %.2f of the sequential wall time, want <= 0.3", b, ratio)
		}
	}
}
