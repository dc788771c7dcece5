package tune

import (
	"slices"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The soak proves what the search held. A candidate's own profile,
// measured by the very trial that became the chosen point, takes the
// search's place in the soak only where the launcher plans the same JVM
// with it; filecache's serial-c1-appcds held a 52 MiB heap at 104Mi, was
// soaked with its own profile's 14 MiB plan, and died of Java heap space.
func TestSoakRunsThePlanTheSearchHeld(t *testing.T) {
	first := &plan.Profile{Version: 1, LiveHeapBytes: 15 * tmib}
	own := &plan.Profile{Version: 1, App: "serial-c1-appcds", LiveHeapBytes: 15 * tmib}
	point := Point{Candidate: "serial-c1-appcds", MemoryBytes: 104 * tmib, Purpose: PurposeSearch, Profile: first, Measure: true}

	for _, tc := range []struct {
		name     string
		heapOwn  int64 // the heap the launcher plans with the candidate's own profile
		wantProf *plan.Profile
	}{
		{"own profile plans another heap: the search's profile", 14 * tmib, first},
		{"own profile plans the same JVM: the candidate's own", 52 * tmib, own},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planner := func(p Point) (*plan.Plan, error) {
				heap := p.MemoryBytes / 2
				if p.Profile == own {
					heap = tc.heapOwn
				}
				return &plan.Plan{Options: []string{"-Xmx" + size.JVM(heap)}}, nil
			}
			s := &searcher{cfg: Config{Soak: 30 * time.Second, Planner: planner},
				cands: []*cand{{CandidateResult: &CandidateResult{Candidate: Candidate{Name: "serial-c1-appcds"}}, prof: own}}}
			got := s.soakPoint(point)
			if got.Profile != tc.wantProf {
				t.Errorf("the soak's profile is %v, want %v", got.Profile, tc.wantProf)
			}
			if got.Purpose != PurposeSoak || got.Soak != 30*time.Second || got.Measure {
				t.Errorf("soak point %+v: want a soak of 30s without NMT", got)
			}
			searched, _ := planner(point)
			soaked, _ := planner(got)
			if !slices.Equal(searched.Options, soaked.Options) {
				t.Errorf("the soak runs %v, the search held %v", soaked.Options, searched.Options)
			}
		})
	}
}
