package profile

import (
	"errors"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// labAt is the lab profile and the smallest limit the planner accepts for
// it: the answer a footprint search ends near.
func labAt(t *testing.T) (*plan.Profile, int64) {
	t.Helper()
	lab, err := plan.LoadProfile("../plan/testdata/filecache-tune-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in := DiffInput(lab, lab, 32*size.MiB, "footprint")
	in.Profile = lab
	_, err = plan.Compute(in)
	var ref *plan.RefusedError
	if !errors.As(err, &ref) || ref.MinBytes == 0 {
		t.Fatalf("the lab profile plans at 32Mi (%v): the test needs its smallest limit", err)
	}
	return lab, ref.MinBytes
}

// A production profile with 1.5× the live set flags the heap, and the
// planner names the larger limit the answer needs.
func TestDiffLiveSetNeedsALimit(t *testing.T) {
	lab, limit := labAt(t)
	prod := *lab
	prod.LiveHeapBytes = lab.LiveHeapBytes * 3 / 2
	d := Diff(lab, &prod, DiffInput(lab, &prod, limit, "footprint"))
	if len(d.Exceeded) != 1 || d.Exceeded[0].Field != "liveHeapBytes" {
		t.Fatalf("exceeded %v, want the live set alone", d.Exceeded)
	}
	if d.Verdict != Needs || d.NeedBytes <= limit {
		t.Fatalf("verdict %s, need %d at limit %d: want a larger limit named", d.Verdict, d.NeedBytes, limit)
	}
	// The named limit plans production; one MiB less does not.
	in := DiffInput(lab, &prod, d.NeedBytes, "footprint")
	in.Profile = &prod
	if _, err := plan.Compute(in); err != nil {
		t.Errorf("the named limit %s does not plan production: %v", size.Format(d.NeedBytes), err)
	}
	line := d.Line()
	for _, w := range []string{"heap live set", "1.50×", "needs limit " + size.Format(d.NeedBytes), "re-tune with --profile"} {
		if !strings.Contains(line, w) {
			t.Errorf("line lacks %q: %s", w, line)
		}
	}
}

// Figures within the tolerance, or measured on one side only, hold.
func TestDiffHolds(t *testing.T) {
	lab, limit := labAt(t)
	prod := *lab
	prod.LiveHeapBytes = lab.LiveHeapBytes * 104 / 100
	prod.PeakThreads = lab.PeakThreads + 1
	prod.DirectMemoryBytes = 0 // not measured in production
	lab2 := *lab
	lab2.MappedBufferBytes = 0
	prod.MappedBufferBytes = 50 * size.MiB // measured in production only
	d := Diff(&lab2, &prod, DiffInput(&lab2, &prod, limit, "footprint"))
	if d.Verdict != Holds || len(d.Exceeded) != 0 || !strings.Contains(d.Line(), "holds") {
		t.Fatalf("got %s %v: %s", d.Verdict, d.Exceeded, d.Line())
	}
}

// More threads at a generous limit: the limit still plans production, but
// the proof does not cover it.
func TestDiffRetune(t *testing.T) {
	lab, _ := labAt(t)
	prod := *lab
	prod.PeakThreads = lab.PeakThreads * 2
	d := Diff(lab, &prod, DiffInput(lab, &prod, size.GiB, "footprint"))
	if d.Verdict != Retune || !strings.Contains(d.Line(), "threads 64 > 32 (2.00×)") || !strings.Contains(d.Line(), "re-tune with --profile") {
		t.Fatalf("got %s: %s", d.Verdict, d.Line())
	}
}
