package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The margins on a measured non-heap (metaspace × 1.03 + 1 MiB, code ×
// 1.05 + 1 MiB, direct × 1.5 + 2 MiB, native × 1.05) are what one trial
// cannot see. At the plan's floor they are also what stands between the
// heap and the live set, and one step under it, before this plan, Fit had
// two answers and both failed: with the margins the heap ran out ("Java
// heap space" before the app was ready), and with the JDK's half of the
// limit the kernel killed the process, which holds the measured non-heap
// beside it. Measured on the tune panel (bench/results/tune-edge-*.json,
// jvmfit e6cfebc): ledger at 216Mi with the launcher's own profile, -Xmx46m
// (the margins) died before it was ready and -Xmx108m (the JDK's) was
// OOM-killed; -Xmx52m, beside the non-heap its profile measured, held the
// SLO with the cgroup at 211.9 MiB of working set.
//
// So under Fit (exec, flags, a trial as exec plans it), where the margins
// leave the heap under the measured live set and the JDK's own heap does
// not fit beside the measured non-heap (marginsStarve), the heap takes
// what the measured non-heap, the kernel, the collector's share and the
// headroom leave: the margins shrunk to what the profile measured. The
// caps keep their margins, so the limit no longer holds every cap whole;
// Plan.Doubt says by how much. Compute and Strict still refuse there, so
// the floor tune searches from is the plan with its margins.

// leanHeap is the heap beside the non-heap the profile's trial measured
// (a cap of the user's above its measurement counted whole); 0 when the
// profile measured no native.
func (s *sizing) leanHeap(pr *Profile, u userSet, gc string) int64 {
	m := measuredBeside(pr, u)
	if m == 0 {
		return 0
	}
	// No slack beyond the headroom: a MiB here is 2% of the heap at the
	// live set, where the collector's time grows fastest (ledger at 216Mi:
	// 18% of the run in GC at -Xmx52m, 33% at -Xmx50m, p99 40 and 174 ms).
	free := s.limit - s.headroom - s.kernel - m
	if free <= mib {
		return 0
	}
	return alignHeap(int64(float64(free-mib/2) / (1 + gcPct(gc))))
}

// planLean makes the plan lean when that gives the heap more than the
// margins do (starved, the heap they leave) and at least the planner's
// floor for the live set. It fills the regions as the margins size them
// (the caps) and returns false, changing nothing, when it does not apply.
func (s *sizing) planLean(pr *Profile, u userSet, gc string, starved int64) bool {
	h := s.leanHeap(pr, u, gc)
	if h <= starved || h < s.minHeap {
		return false
	}
	s.heap = h
	s.gcOverhead = s.gcFor(gc, h, pr)
	s.toFloors()
	s.metaCap, s.directCap = s.meta, s.direct
	m := measuredBeside(pr, u)
	over := s.heap + s.nonHeap() + s.headroom - s.limit
	s.set(RegHeap, "profile", fmt.Sprintf("the margins shrunk to what the profile measured: all that its %s of measured non-heap, the kernel and headroom leave (the margins would leave %s, under the measured live set %s)",
		size.Format(m), size.Format(max(starved, 0)), size.Format(pr.LiveHeapBytes)))
	s.lean = fmt.Sprintf("at %s the plan's margins leave the heap %s, under the measured live set %s: the heap takes %s beside the %s of non-heap the profile's trial measured, and the caps keep margins the limit does not hold (%s over it when every cap fills)",
		size.Format(s.limit), size.Format(max(starved, 0)), size.Format(pr.LiveHeapBytes), size.Format(h), size.Format(m), size.Format(max(over, 0)))
	return true
}

// measuredBeside is the non-heap the profile's trial measured, with a cap
// of the user's above its region's measurement counted whole (the app may
// use what it is given); 0 without a measured native.
func measuredBeside(pr *Profile, u userSet) int64 {
	m := MeasuredNonHeap(pr)
	if m == 0 {
		return 0
	}
	for _, c := range []struct {
		key      string
		measured int64
	}{
		{"MaxMetaspaceSize", pr.MetaspaceUsedBytes},
		{"ReservedCodeCacheSize", pr.CodeCacheUsedBytes},
		{"MaxDirectMemorySize", pr.DirectMemoryBytes},
	} {
		if v, _ := u.size(c.key); v > c.measured {
			m += v - c.measured
		}
	}
	return m
}
