package plan

import (
	"fmt"
	"testing"
)

// C2 inlines less where it runs at small limits under balanced and
// footprint (its largest compiles' arenas are the memory tiered costs
// there), and nowhere else: not under throughput, not above 300 MiB, not
// when C1 alone compiles or C2 alone does, and never over the user's own.
func TestLeanC2Inlining(t *testing.T) {
	many := &Profile{Version: 1, PeakThreads: 330}
	cases := []struct {
		mem  int64
		goal string
		pr   *Profile
		user []string
		want string // FreqInlineSize the plan emits, "" for none
	}{
		{128 * mib, Balanced, nil, nil, "100"},
		{300 * mib, Balanced, nil, nil, "100"},
		{301 * mib, Balanced, nil, nil, ""},
		{1024 * mib, Balanced, nil, nil, ""},
		{200 * mib, Throughput, nil, nil, ""},
		{200 * mib, Footprint, nil, nil, ""},     // C1 only: no C2 to steer
		{200 * mib, Footprint, many, nil, "100"}, // tiered kept for deep stacks
		{200 * mib, Balanced, nil, []string{"-XX:-TieredCompilation"}, ""},
		{200 * mib, Balanced, nil, []string{"-XX:TieredStopAtLevel=1"}, ""},
		{200 * mib, Balanced, nil, []string{"-XX:FreqInlineSize=250"}, ""}, // the user's wins
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dMi/%s/%v", c.mem/mib, c.goal, c.user), func(t *testing.T) {
			p := mustPlan(t, Input{Limits: limits(c.mem, 1), JDK: jdk17, Goal: c.goal, Profile: c.pr, UserOptions: c.user})
			got := reasonValue(p, "FreqInlineSize")
			if got != c.want {
				t.Errorf("FreqInlineSize %q, want %q (options %v)", got, c.want, p.Options)
			}
			if c.want != "" && p.C1Only {
				t.Errorf("lean inlining with C1 only: %v", p.Options)
			}
		})
	}
}
