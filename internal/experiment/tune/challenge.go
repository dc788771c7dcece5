package tune

import (
	"slices"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// challengeHeap is the heap a footprint challenger runs with at the
// incumbent's edge less a step: the heap the incumbent held at its edge
// (inc), so that the trial asks one question, whether the challenger's
// own non-heap is a step smaller. 0 where the challenger plans its own:
// for the other goals (the cost at the edge weighs the heap too), or when
// the launcher plans no heap for the incumbent.
//
// Planned on its own, a challenger that has not run yet has only the
// profile measured under the JDK's defaults, whose non-heap (C2's arenas
// and code, G1's tables) leaves its heap nothing at the edge: the planner
// gives it the JDK's heap, a quarter of the limit on top of a non-heap
// that no longer fits, or a heap under the live set (the panel of
// 2026-12-03: every challenger at the edge less a step was OOM-killed or
// died of Java heap space, 10 of 10 on each service). Those KOs said
// nothing about the challenger's options.
func (s *searcher) challengeHeap(inc Trial) int64 {
	if s.res.Goal != plan.Footprint {
		return 0
	}
	pl, err := s.cfg.Planner(inc.Point)
	if err != nil {
		return 0
	}
	return pl.HeapBytes()
}

// challengeOptions are the options of c's challenge trial with heap h:
// c's own (opts), with -Xmx h unless c sizes the heap itself (a heap
// variant's -Xmx, a RAM percentage: the heap is what it is a candidate
// for) or is the launcher's, which runs as exec plans it.
func challengeOptions(c *cand, opts []string, h int64) []string {
	if h <= 0 || c.Launcher || ownsHeap(opts) {
		return opts
	}
	return append(slices.Clone(opts), "-Xmx"+size.JVM(h))
}

// ownsHeap says whether options size the heap.
func ownsHeap(opts []string) bool {
	for _, o := range opts {
		switch flagName(o) {
		case "-Xmx", "XX:MaxHeapSize", "XX:MaxRAMPercentage", "XX:MaxRAM", "XX:MaxRAMFraction":
			return true
		}
	}
	return false
}
