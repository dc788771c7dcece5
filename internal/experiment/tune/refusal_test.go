package tune

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// An app archive candidate's first plan, made with the profile measured
// under the JDK's defaults, counts the app's metaspace and the new
// archive's file on top: plan.Compute refuses it well above where the
// candidate runs (catalog, 2026-11-27: serial-c1-appcds refused up to
// 200Mi). That floor is a prediction: the candidate is tried at the
// incumbent's edge less a step, planned there as exec plans it, and its
// own edge is found below the refusal, with its own profile.
func TestTuneRefusalIsNoWall(t *testing.T) {
	a := cheapArchiveApp()
	var refused []int64
	cfg := simConfig(a, plan.Footprint, 40)
	cfg.Remeasure = true
	cfg.Planner = func(p Point) (*plan.Plan, error) {
		mapsArchive := slices.ContainsFunc(p.Options, func(o string) bool { return strings.HasPrefix(o, "-XX:SharedArchiveFile=") })
		own := p.Profile != nil && p.Profile.App == p.Candidate
		if p.Candidate == "serial-c1-appcds" && mapsArchive && !own && !p.Fit {
			// The double count: refused below 200Mi.
			if p.MemoryBytes < 200*tmib {
				refused = append(refused, p.MemoryBytes)
				return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: 200 * tmib, Why: "simulated double count"}
			}
			return &plan.Plan{}, nil
		}
		return a.planner(p)
	}
	r, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	runCounts(t, a.runs)
	cds := candidateResult(r, "serial-c1-appcds")
	if cds == nil || cds.MinOKBytes == 0 {
		t.Fatalf("serial-c1-appcds: %+v; want search trials and a passing point (refused at %v)\n%s", cds, refused, searchLog(r))
	}
	first := firstSearch(a.runs, "serial-c1-appcds")
	if first == nil || first.MemoryBytes >= 200*tmib || !first.Fit || !first.Measure {
		t.Errorf("its first search trial %+v; want a measured one below the refusal's 200Mi, planned as exec plans", first)
	}
	if cds.MinOKBytes != 96*tmib || r.Candidate != "serial-c1-appcds" {
		t.Errorf("serial-c1-appcds lowest OK %dMi, answer %s; want 96Mi and the answer\n%s", cds.MinOKBytes>>20, r.Candidate, searchLog(r))
	}
}

// firstSearch is the first search trial of candidate among runs, or nil.
func firstSearch(runs []Point, candidate string) *Point {
	for i := range runs {
		if runs[i].Candidate == candidate && runs[i].Purpose == PurposeSearch {
			return &runs[i]
		}
	}
	return nil
}

// cheapArchiveApp is a simulated app whose archive candidate passes lower
// (96Mi) than serial-c1 (120Mi) and the defaults (140Mi).
func cheapArchiveApp() *simApp {
	ms := time.Millisecond
	return &simApp{
		cands: map[string]simCand{
			"serial-c1":        {min: 120 * tmib, p99: 9 * ms, start: 3.0, floorBelow: 20 * tmib},
			"serial-c1-appcds": {min: 96 * tmib, p99: 9 * ms, start: 2.0, floorBelow: 10 * tmib},
		},
		def: simCand{min: 140 * tmib, p99: 9 * ms, start: 3.0, floorBelow: 20 * tmib},
	}
}
