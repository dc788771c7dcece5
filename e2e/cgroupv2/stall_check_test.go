package cgroupv2

import (
	"strings"
	"testing"
)

// checkStall judges the stall layout's steps: the sandbox's stall tests
// passed on a v2 kernel with PSI, the thrashing trial was KO memory-stall
// and the churning one was not.
func checkStall(t *testing.T, g *guestRun) {
	layoutRun(t, g, "stall", func(t *testing.T) { checkStallSteps(t, g, "stall") })
}

func checkStallSteps(t *testing.T, g *guestRun, layout string) {
	testsStep(t, g, layout, "stall", stallTests)
	stepRun(t, g, layout, "thrash", func(t *testing.T, s *guestStep) {
		r := trialJSON(t, s)
		why := keyed(s.Stdout)["failed"]
		if s.RC != 1 || r.Verdict != "KO" || r.Kind != "memory-stall" {
			t.Errorf("rc %d, verdict %s %s: want KO memory-stall at %s", s.RC, r.Verdict, r.Kind, hogMemory)
		}
		if !strings.Contains(why, "pinned at the "+hogMemory+" limit") {
			t.Errorf("why: %q, want the group pinned at its %s limit", why, hogMemory)
		}
		t.Logf("KO %s at %s: %s", r.Kind, hogMemory, why)
	})
	stepRun(t, g, layout, "churn", func(t *testing.T, s *guestStep) {
		r := trialJSON(t, s)
		if s.RC != 0 || r.Verdict != "OK" {
			t.Errorf("rc %d, verdict %s %s (%s): want OK at %s: streaming a file through the page cache is no stall",
				s.RC, r.Verdict, r.Kind, keyed(s.Stdout)["failed"], hogMemory)
		}
		t.Logf("%s at %s: memory.peak %.1f MiB, working set %.1f MiB", r.Verdict, hogMemory, mib(r.MemoryPeak), mib(r.WorkingSetPeak))
	})
}
