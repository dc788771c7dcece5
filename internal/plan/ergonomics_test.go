package plan

import (
	"math"
	"math/rand"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

// A user's RAM options are planned as the JVM applies them, not as their
// names read: MaxRAMPercentage=30 is a 60 MiB heap at 120 MiB (MinRAMPercentage
// rules below ~250 MB) and 126 MiB at 256-416 MiB. Planned by Fit, the one
// rule of exec and trials: at 120 and 160 MiB the strict planner refuses
// (tiered's code cache cap and compiler arenas, counted whole, leave the
// user's heap too little), Fit plans around the user's heap.
func TestUserRAMOptionsAsTheJVMReadsThem(t *testing.T) {
	cases := []struct {
		mem  int64
		opts []string
		heap int64
	}{
		{120, []string{"-XX:MaxRAMPercentage=30"}, 60},
		{256, []string{"-XX:MaxRAMPercentage=30"}, 126},
		{416, []string{"-XX:MaxRAMPercentage=30"}, 126},
		{1024, []string{"-XX:MaxRAMPercentage=30"}, 308},
		{200, []string{"-XX:MinRAMPercentage=25"}, 50},
		{160, []string{"-XX:MaxRAM=100m"}, 50},
	}
	for _, c := range cases {
		p, _, err := Fit(Input{Limits: limits(c.mem*mib, 1), JDK: jdk17}, c.opts)
		if err != nil {
			t.Errorf("%dMi %v: %v", c.mem, c.opts, err)
			continue
		}
		if p.HeapBytes() != c.heap*mib || has(p, "-Xmx") {
			t.Errorf("%dMi %v: planned heap %s (options %v), the JVM picks %dMi", c.mem, c.opts, size.Format(p.HeapBytes()), p.Options, c.heap)
		}
		if p.Region(RegHeap).Source != "user" {
			t.Errorf("%dMi %v: heap source %q", c.mem, c.opts, p.Region(RegHeap).Source)
		}
	}
}

// Without a profile the heap is never below the JDK's own choice at that
// limit (issue 21: a heap-bound app needed 1.9× the defaults' memory when
// the plan kept 40% of a room it had shrunk for a Spring-sized non-heap),
// and no limit the JDK runs in is refused: every limit from 64 MiB to 16
// GiB on a 1/8 grid and 400 random ones, JDK 17, 21 and 25, 1 to 16 CPUs,
// every goal.
func TestNoProfileHeapAtLeastJDKDefault(t *testing.T) {
	mems := []int64{}
	for m := int64(64 * mib); m <= 16*size.GiB; m += m / 8 {
		mems = append(mems, m)
	}
	rng := rand.New(rand.NewSource(21))
	for i := 0; i < 400; i++ {
		mems = append(mems, int64(float64(64*mib)*math.Pow(2, rng.Float64()*8)))
	}
	jdks := []jdk.JDK{jdk17, {Version: 21, Update: 8}, jdk25}
	for _, m := range mems {
		for _, cpus := range []float64{1, 2, 4, 16} {
			def := jdkDefaultHeap(m, int(cpus))
			for _, j := range jdks {
				for _, goal := range []string{Footprint, Balanced, Throughput} {
					p, err := Compute(Input{Limits: limits(m, cpus), JDK: j, Goal: goal})
					if err != nil {
						t.Fatalf("%s %g CPUs JDK %d %s: refused without a profile: %v", size.Format(m), cpus, j.Version, goal, err)
					}
					if p.HeapBytes() < def {
						t.Fatalf("%s %g CPUs JDK %d %s: heap %s below the JDK's %s", size.Format(m), cpus, j.Version, goal, size.Format(p.HeapBytes()), size.Format(def))
					}
					checkFits(t, p, m)
				}
			}
		}
	}
}
