package plan

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// Serial's young generation is capped only where the JDK's third would
// leave the old generation under 1.25 × the live set, never below 4 MiB,
// and only where it gives the old generation at least 4 MiB more than the
// JDK's third does.
func TestYoungCap(t *testing.T) {
	live := int64(51773440) // catalog's, 49.4 MiB
	for _, c := range []struct{ heap, want int64 }{
		{58 * mib, 4 * mib},  // catalog's plan at 224Mi: the old generation gets 54 MiB, not 38.7
		{62 * mib, 4 * mib},  // heap - 1.25 × live is 0: the floor
		{66 * mib, 4 * mib},  // 66 - 61.75, rounded down to the MiB
		{76 * mib, 14 * mib}, // at 256Mi
		{86 * mib, 24 * mib}, // 4.7 MiB under the JDK's third
		{92 * mib, 0},        // 30 MiB, under a MiB below the third: not worth a change
		{93 * mib, 0},        // two thirds of it hold 1.25 × live: the JDK's split
		{114 * mib, 0},       // well above
		{12 * mib, 0},        // the floor is a third of the heap: nothing to cap
	} {
		if got := youngCap(c.heap, live); got != c.want {
			t.Errorf("youngCap(%d MiB, 49.4 MiB) = %d MiB, want %d MiB", c.heap>>20, got>>20, c.want>>20)
		}
	}
	// filecache's answers: heaps of 18-24 MiB over 13.3 MiB would gain
	// 1-2 MiB of old generation: unchanged.
	for _, h := range []int64{10, 18, 24, 30} {
		if y := youngCap(h*mib, 13961216); y != 0 {
			t.Errorf("filecache's heap %d MiB: young cap %d MiB", h, y>>20)
		}
	}
	if youngCap(58*mib, 0) != 0 {
		t.Error("no live set, no cap")
	}
}

// The plan with catalog's profile measured under serial-c1-lazyjit at
// 224Mi caps Serial's young generation; not when the user sets the heap or
// the young generation, nor for another collector.
func TestYoungCapInThePlan(t *testing.T) {
	pr, err := LoadProfile("testdata/catalog-lazyjit-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	own, _ := ownOptions(pr)
	plan := func(user ...string) *Plan {
		t.Helper()
		return mustPlan(t, Input{Limits: limits(224*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: append(slices.Clone(own), user...), Profile: pr})
	}
	p := plan()
	if !slices.Contains(p.Options, "-Xmn4m") {
		t.Fatalf("no -Xmn4m at 224Mi with heap %d MiB: %v", p.HeapBytes()>>20, p.Options)
	}
	for _, r := range p.Reasons {
		if r.Name == "NewSize" && !strings.Contains(r.Why, "live set") {
			t.Errorf("the young cap's reason does not name the live set: %q", r.Why)
		}
	}
	for _, user := range [][]string{{"-Xmn16m"}, {"-XX:NewRatio=3"}, {"-XX:MaxNewSize=12m"}, {"-Xmx56m"}} {
		for _, o := range plan(user...).Options {
			if strings.HasPrefix(o, "-Xmn") {
				t.Errorf("with the user's %v the plan still says %s", user, o)
			}
		}
	}
	par := mustPlan(t, Input{Limits: limits(224*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: []string{"-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1"}, Profile: pr})
	for _, o := range par.Options {
		if strings.HasPrefix(o, "-Xmn") {
			t.Errorf("Parallel got %s", o)
		}
	}
	for _, o := range mustPlan(t, Input{Limits: limits(400*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: own, Profile: pr}).Options {
		if strings.HasPrefix(o, "-Xmn") {
			t.Errorf("at 400Mi the heap is large enough for the JDK's split, yet %s", o)
		}
	}
}

// A real JDK 17 in a 224Mi cgroup takes the plan's -Xmx and -Xmn as the
// young generation's size, so the old generation gets the rest.
func TestYoungCapRealJVM(t *testing.T) {
	const java = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	if _, err := os.Stat(java); err != nil {
		t.Fatalf("JDK 17 not installed at %s: bash .ci/install", java)
	}
	pr, err := LoadProfile("testdata/catalog-lazyjit-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	own, _ := ownOptions(pr)
	p := mustPlan(t, Input{Limits: limits(224*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: own, Profile: pr})
	var jvm []string
	for _, o := range append(slices.Clone(p.Options), own...) {
		if !strings.HasPrefix(o, "-D") {
			jvm = append(jvm, o)
		}
	}
	got := printFlags(t, java, 224*mib, 1, jvm)
	if got["NewSize"] != fmt.Sprint(4*mib) || got["MaxNewSize"] != fmt.Sprint(4*mib) {
		t.Errorf("NewSize %s, MaxNewSize %s: want %d", got["NewSize"], got["MaxNewSize"], 4*mib)
	}
	if got["MaxHeapSize"] != fmt.Sprint(p.HeapBytes()) {
		t.Errorf("MaxHeapSize %s, planned %d", got["MaxHeapSize"], p.HeapBytes())
	}
}
