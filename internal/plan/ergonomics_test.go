package plan

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// A user's RAM options are planned as the JVM applies them, not as their
// names read: MaxRAMPercentage=30 is a 60 MiB heap at 120 MiB (MinRAMPercentage
// rules below ~250 MB) and 126 MiB at 256-416 MiB.
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
		p, err := Compute(Input{Limits: limits(c.mem*mib, 1), JDK: jdk17, UserOptions: c.opts})
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

// Without a profile the heap is never above the JDK's own choice, so
// non-heap always has at least the room the defaults give it.
func TestNoProfileHeapAtMostJDKDefault(t *testing.T) {
	for m := int64(64); m <= 64*1024; m += m / 8 {
		for _, cpus := range []float64{1, 2, 8} {
			def := jdkDefaultHeap(m*mib, int(cpus))
			for _, goal := range []string{Footprint, Balanced, Throughput} {
				p, err := Compute(Input{Limits: limits(m*mib, cpus), JDK: jdk17, Goal: goal})
				if err != nil {
					continue
				}
				if p.HeapBytes() > def {
					t.Fatalf("%dMi %g CPUs %s: heap %s above the JDK's %s", m, cpus, goal, size.Format(p.HeapBytes()), size.Format(def))
				}
			}
		}
	}
}
