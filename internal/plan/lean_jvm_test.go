package plan

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The lean heap on a real JVM: inventory at 120Mi with the profile
// measured under Serial and C1. Compute's margins leave the heap 18 MiB,
// under the 18.7 MiB live set; the JDK's heap (a quarter of the limit)
// does not fit beside the 89.3 MiB of measured non-heap; Fit gives the
// heap what the measured non-heap, the kernel and the headroom leave,
// 26 MiB, and the trial holds with it under the limit.
func TestLeanHeapRealJVM(t *testing.T) {
	const profile = "testdata/inventory-c1-profile.json"
	pr, err := LoadProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Limits: limits(120*mib, 1), JDK: jdk17, Profile: pr}
	lean, _, err := Fit(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	margins, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if margins.HeapBytes() >= pr.LiveHeapBytes || lean.HeapBytes() <= pr.LiveHeapBytes {
		t.Fatalf("at 120Mi Compute's heap %s and Fit's %s do not straddle the live set %s: the case tests nothing",
			size.Format(margins.HeapBytes()), size.Format(lean.HeapBytes()), size.Format(pr.LiveHeapBytes))
	}
	r := runReal(t, "inventory", 120*mib, profile)
	if r.HeapMax != lean.HeapBytes() {
		t.Errorf("inventory at 120Mi ran with a %s heap, want the lean plan's %s", size.Format(r.HeapMax), size.Format(lean.HeapBytes()))
	}
}
