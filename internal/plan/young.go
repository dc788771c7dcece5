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
// 1 CPU, 20 req/s, serial-c1 with Tomcat at 7 threads, 224Mi, NMT off,
// 15 s warm-up and 30 s measured, load average 4-11, 2026-11-27,
// bench/nonheap.sh):
//
//	options                      full GCs (after 20 s)   p99      cgroup peak
//	-Xmx62m, the JDK's third     99 (41), ~130-215 ms    -        OOM-killed by the kernel
//	-Xmx62m -Xmn8m, lazy JIT     29 (1)                  86 ms    220.6 MiB
//	-Xmx58m -Xmn8m, lazy JIT     48 (16)                 658 ms   213.1 MiB
//	-Xmx58m -Xmn4m, lazy JIT     28 (7)                  269 ms   213.5 MiB
//
// (the -Xmx58m rows are the plan at 224Mi with the lazy JIT's own profile.)
// At the edge every MiB the old generation gets saves full collections, and
// the young ones stay cheap (1-3 ms each). The same split explains tune's
// p99 KOs at 256Mi and 272Mi on catalog (heaps of 58 and 74 MiB: an old
// generation of 39 and 49 MiB under a 49.4 MiB live set).
const (
	// oldShare is the old generation the young cap leaves room for: the
	// live set and a quarter more for promotions between full collections.
	oldShare = 1.25
	// youngFloor is the smallest young generation planned: 4 MiB on
	// catalog at 20 req/s collected about 15 times a second at 1-3 ms
	// each, and held the p99 where 8 MiB did not (the table above).
	youngFloor = 4 * mib
	// youngGain is the least the cap must give the old generation over
	// the JDK's split to be worth a change: filecache's answers (heaps of
	// 18-24 MiB over a 13.3 MiB live set) would gain 1-2 MiB, which no
	// trial has measured; catalog's edge gains 15.
	youngGain = 4 * mib
)

// youngCap is the young generation (-Xmn) for a Serial heap planned from a
// measured live set, or 0 when the JDK's split already leaves the old
// generation oldShare × the live set, or the cap would give the old
// generation less than youngGain more than the JDK's third does.
func youngCap(heap, live int64) int64 {
	if live <= 0 || heap <= 0 {
		return 0
	}
	old := int64(float64(live) * oldShare)
	if heap*2/3 >= old {
		return 0
	}
	y := max(youngFloor, (heap-old)/mib*mib)
	if heap/3-y < youngGain {
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
