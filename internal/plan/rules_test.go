package plan

import "testing"

// A profile scraped from a metrics endpoint counts Java threads only: the
// C1 rules count them with the VM's own, as the stacks do, so a
// production profile of few threads runs C1 alone at a small limit and
// one of many keeps tiered, as a trial's profile would.
func TestC1RuleCountsJavaThreadsWithTheVMs(t *testing.T) {
	for _, c := range []struct {
		name   string
		pr     Profile
		goal   string
		wantC1 bool
	}{
		{"scraped, 28 Java threads, balanced", Profile{Version: 1, PeakJavaThreads: 28}, Balanced, true},
		{"scraped, 95 Java threads, balanced: over 100 with the VM's", Profile{Version: 1, PeakJavaThreads: 95}, Balanced, false},
		{"scraped, 300 Java threads, footprint: past the break-even", Profile{Version: 1, PeakJavaThreads: 300}, Footprint, false},
		{"trial, 40 threads, balanced", Profile{Version: 1, PeakThreads: 40, PeakJavaThreads: 95}, Balanced, true},
	} {
		g, _ := ParseGoal(c.goal)
		p := mustPlan(t, Input{Limits: limits(128*mib, 1), JDK: jdk17, Goal: g, Profile: &c.pr})
		if p.C1Only != c.wantC1 {
			t.Errorf("%s: C1 only %v, want %v (%v)", c.name, p.C1Only, c.wantC1, p.Options)
		}
	}
}
