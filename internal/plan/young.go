package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Serial's young generation at a heap planned close to the live set.
//
// Serial splits its heap by NewRatio=2: the young generation takes up to a
// third, so the old generation holds at most two thirds of -Xmx. With a
// heap under about twice the live set the old generation cannot hold the
// live set with room for what each young collection promotes, and every
// promotion ends in a full collection. catalog (live set 49.4 MiB, JDK 17,
// 1 CPU, 20 req/s, serial-c1 with Tomcat at 7 threads, -Xmx62m at 224Mi,
// load average 4-7, 2026-11-27): with the JDK's split, 99 full
// collections in 41 s, one a second under load at 130-215 ms each
// ("59M->46M(59M)"), until the kernel killed it; with -Xmn8m and the lazy
// JIT, 29 full collections, one of them under load, and 350 young ones
// at 2-3 ms: p99 86 ms, alive at the end at a 220.6 MiB peak. The same
// split explains tune's p99 KOs at 256Mi and 272Mi on catalog (heaps of 58
// and 74 MiB: an old generation of 39 and 49 MiB under a 49.4 MiB live set).
const (
	// oldShare is the old generation the young cap leaves room for: the
	// live set and a quarter more for promotions between full collections.
	oldShare = 1.25
	// youngFloor is the smallest young generation planned: 8 MiB
	// collected every few MiB of allocation cost catalog 2-3 ms a
	// collection, a few per second at 20 req/s.
	youngFloor = 8 * mib
)

// youngCap is the young generation (-Xmn) for a Serial heap planned from a
// measured live set, or 0 when the JDK's split already leaves the old
// generation oldShare × the live set, or the cap would not be smaller
// than the JDK's third.
func youngCap(heap, live int64) int64 {
	if live <= 0 || heap <= 0 {
		return 0
	}
	old := int64(float64(live) * oldShare)
	if heap*2/3 >= old {
		return 0
	}
	y := max(youngFloor, (heap-old)/mib*mib)
	if y >= heap/3 {
		return 0
	}
	return y
}

// young emits -Xmn for Serial when the heap is the plan's own (not the
// user's -Xmx or RAM percentages) and the user says nothing of the young
// generation.
func (e *emitter) young(s *sizing, gc string, pr *Profile) {
	if gc != "Serial" || e.u.has("MaxHeapSize") || userSteersHeap(e.u) {
		return
	}
	for _, k := range []string{"NewSize", "MaxNewSize", "NewRatio"} {
		if e.u.has(k) {
			return
		}
	}
	y := youngCap(s.heap, pr.LiveHeapBytes)
	if y == 0 {
		return
	}
	v := size.JVM(y)
	e.add("NewSize", "-Xmn"+v, v, RegHeap, fmt.Sprintf(
		"young generation capped so the old one holds %s: the measured live set %s × %.2f (the JDK's third of a %s heap would leave the old generation %s, and every promotion a full collection)",
		size.Format(s.heap-y), size.Format(pr.LiveHeapBytes), oldShare, size.Format(s.heap), size.Format(s.heap*2/3)))
}
