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
// archive's file on top: the launcher refuses it well above where the
// candidate runs (catalog, 2026-11-27: serial-c1-appcds refused at both
// steps of round 1, no search trial, halved with no point). A refusal costs
// no trial, so it takes no step: the candidate goes to the smallest limit
// the launcher names, is measured there under its own options, and bisects
// down with its own profile like any other.
func TestTuneRefusalTakesNoStep(t *testing.T) {
	a := cheapArchiveApp()
	var refused []int64
	cfg := simConfig(a, plan.Footprint, 40)
	cfg.Remeasure = true
	cfg.Planner = func(p Point) (*plan.Plan, error) {
		mapsArchive := slices.ContainsFunc(p.Options, func(o string) bool { return strings.HasPrefix(o, "-XX:SharedArchiveFile=") })
		own := p.Profile != nil && p.Profile.App == p.Candidate
		if p.Candidate == "serial-c1-appcds" && mapsArchive && !own {
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
	var cds *CandidateResult
	for i := range r.Candidates {
		if r.Candidates[i].Name == "serial-c1-appcds" {
			cds = &r.Candidates[i]
		}
	}
	if cds == nil || cds.MinOKBytes == 0 {
		t.Fatalf("serial-c1-appcds: %+v; want search trials and a passing point (refused at %v)", cds, refused)
	}
	first := firstSearch(a.runs, "serial-c1-appcds")
	if first == nil || first.MemoryBytes != 200*tmib || !first.Measure {
		t.Errorf("its first search trial %+v; want a measured one at 200Mi, the limit the refusal named", first)
	}
	if cds.MinOKBytes != 96*tmib || r.Candidate != "serial-c1-appcds" {
		t.Errorf("serial-c1-appcds lowest OK %dMi, answer %s; want 96Mi (its own profile plans below the refusal) and the answer",
			cds.MinOKBytes>>20, r.Candidate)
	}
}

// Once its training has written the archive, an archive candidate starts
// where the launcher's plan with the archive gives the heap the whole live
// set, not at the smallest limit a refusal names (the heap there is 3/4 of
// the live set: catalog's serial-c1-appcds died of Java heap space before
// it was ready at the limit its refusal named, 2026-11-27).
func TestTuneArchiveCandidateStartsWhereItsTrainedHeapHoldsTheLiveSet(t *testing.T) {
	a := cheapArchiveApp()
	cfg := simConfig(a, plan.Footprint, 40)
	cfg.Remeasure = true
	cfg.Planner = func(p Point) (*plan.Plan, error) {
		mapsArchive := slices.ContainsFunc(p.Options, func(o string) bool { return strings.HasPrefix(o, "-XX:SharedArchiveFile=") })
		own := p.Profile != nil && p.Profile.App == p.Candidate
		if p.Candidate == "serial-c1-appcds" && mapsArchive && !own {
			// With the archive the launcher accepts from 200Mi, a heap of
			// 3/4 of the live set there; each MiB more of live set needs 3
			// MiB more of limit in this simulation.
			floor := 200*tmib + (p.Profile.LiveHeapBytes-20*tmib)*3
			if p.MemoryBytes < floor {
				return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: floor, Why: "simulated archive"}
			}
			return &plan.Plan{}, nil
		}
		return a.planner(p)
	}
	if _, err := Run(context.Background(), cfg, a); err != nil {
		t.Fatal(err)
	}
	runCounts(t, a.runs)
	first := firstSearch(a.runs, "serial-c1-appcds")
	// The live set over 3/4 is 26.7 MiB: 220 MiB of limit, 224Mi on the grid.
	if first == nil || first.MemoryBytes != 224*tmib || !first.Measure {
		t.Errorf("its first search trial %+v; want a measured one at 224Mi, where its trained heap holds the live set (not 200Mi, the refusal's)", first)
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
