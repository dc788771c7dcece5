package plan

import (
	"errors"
	"strings"
	"testing"
)

// With tune's profiles of sort, inventory and filecache (measured under
// the candidates' C1 options; testdata), the limits on minmem's 8 MiB grid
// just below where the apps hold are accepted, and there the apps fail
// cleanly: sort at 104Mi gets -Xmx14m and inventory at 120Mi -Xmx16m,
// heaps at which each stopped with "OutOfMemoryError: Java heap space"
// under load, filecache at 104Mi -Xmx10m, where it stops before it is
// ready (docs/launcher.md, "The heap's floor with a profile"). With the
// floor at the live set (14.0, 18.7 and 13.3 MiB) they were refused, so
// minmem's highest KO was the planner, not the app. The smallest accepted limit
// stays within 16 MiB of the apps' measured minimum (112Mi, 128Mi), and
// the heap there is at least 3/4 of the live set, below which none of the
// apps started.
//
// sort is no longer in the table: with NMT's malloc headers out of its
// measured native (measured.go), 104Mi plans sort a 16 MiB heap, above its
// live set, and sort held there (jvmfit run --jvm jvmfit --profile, 1 CPU,
// 20 req/s: OK, p99 133 ms, cgroup peak 94.4 MiB; load average 2.5), while
// 96Mi is refused by the floor: no grid limit is left where it fails
// cleanly. TestSortHoldsItsGridEdge keeps what it shows.
func TestHeapFloorBelowLiveSet(t *testing.T) {
	for _, c := range []struct {
		profile        string
		fails, lowest  int64 // MiB: a grid limit where the app fails; its measured minmem
		failHeapAtMost int64 // MiB: the heap measured to fail there
	}{
		{"testdata/inventory-c1-profile.json", 120, 128, 20},
		{"testdata/filecache-tune-profile.json", 104, 112, 14},
	} {
		t.Run(c.profile, func(t *testing.T) {
			pr, err := LoadProfile(c.profile)
			if err != nil {
				t.Fatal(err)
			}
			in := Input{Limits: limits(c.fails*mib, 1), JDK: jdk17, Profile: pr}
			p, err := Compute(in)
			if err != nil {
				t.Fatalf("%dMi, where the app fails cleanly, refused: %v", c.fails, err)
			}
			if h := p.HeapBytes(); h >= pr.LiveHeapBytes || h > c.failHeapAtMost*mib {
				t.Errorf("%dMi: heap %d MiB, want below the live set %d MiB and at most the %d MiB measured to fail",
					c.fails, h>>20, pr.LiveHeapBytes>>20, c.failHeapAtMost)
			}
			_, err = Compute(withMem(in, 64*mib))
			var ref *RefusedError
			if !errors.As(err, &ref) {
				t.Fatalf("64Mi not refused: %v", err)
			}
			if !strings.Contains(err.Error(), "3/4 of the measured live set") {
				t.Errorf("refusal does not say where the heap's minimum comes from: %v", err)
			}
			if ref.MinBytes > c.fails*mib || ref.MinBytes < (c.lowest-16)*mib {
				t.Errorf("smallest accepted %d MiB, want in [%d, %d] MiB: at most the failing grid limit, within 16 MiB of minmem's %dMi",
					ref.MinBytes>>20, c.lowest-16, c.fails, c.lowest)
			}
			p, err = Compute(withMem(in, ref.MinBytes))
			if err != nil {
				t.Fatal(err)
			}
			if h := p.HeapBytes(); h*4 < pr.LiveHeapBytes*3 || h >= pr.LiveHeapBytes {
				t.Errorf("heap %d at the smallest accepted limit, want in [3/4, 1) of the live set %d", h, pr.LiveHeapBytes)
			}
		})
	}
}

// sort at 104Mi, where it held with the plan's 16 MiB heap: the plan gives
// the heap at least the live set there, and 96Mi is refused by the floor.
func TestSortHoldsItsGridEdge(t *testing.T) {
	pr, err := LoadProfile("testdata/sort-c1-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Limits: limits(104*mib, 1), JDK: jdk17, Profile: pr}
	p, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if h := p.HeapBytes(); h < pr.LiveHeapBytes {
		t.Errorf("104Mi: heap %d MiB, below the live set %d MiB sort held with", h>>20, pr.LiveHeapBytes>>20)
	}
	var ref *RefusedError
	if _, err := Compute(withMem(in, 96*mib)); !errors.As(err, &ref) {
		t.Errorf("96Mi not refused: %v", err)
	}
}
