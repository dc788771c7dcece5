package plan

// HotSpot's heap ergonomics (Arguments::set_heap_size, JDK 11 to 25), as
// the JVM applies them inside a container: it reads the cgroup limit as
// its physical memory. jvmfit needs the model twice: to know what heap a
// user's -XX:*RAMPercentage or -XX:MaxRAM really gives (it is not what the
// names suggest), and to know the heap the JDK's defaults would pick, which
// bounds the heap of a plan without a profile (docs/launcher.md).

// defaultMaxHeapSize is HotSpot's MaxHeapSize default, 96 MiB scaled by
// 1.3 for 64-bit words (ScaleForWordSize).
const defaultMaxHeapSize = 96 * mib * 13 / 10

// ergoInput is what the JVM's heap sizing reads.
type ergoInput struct {
	limit                int64   // the container's memory limit
	maxRAM               int64   // -XX:MaxRAM, 0 when not given
	maxPct, minPct, init float64 // Max/Min/InitialRAMPercentage
	gc                   string  // the collector, for the heap alignment
}

// ergoFrom reads the user's RAM options (the JVM's defaults otherwise).
func ergoFrom(u userSet, limit int64, gc string) ergoInput {
	e := ergoInput{limit: limit, maxPct: 25, minPct: 50, init: 100.0 / 64, gc: gc}
	if v, ok := u.number("MaxRAMPercentage"); ok {
		e.maxPct = v
	}
	if v, ok := u.number("MinRAMPercentage"); ok {
		e.minPct = v
	}
	if v, ok := u.number("InitialRAMPercentage"); ok {
		e.init = v
	}
	if v, err := u.size("MaxRAM"); err == nil && v > 0 {
		e.maxRAM = v
	}
	return e
}

// userSteersHeap is true when the user gives a RAM option that changes the
// JVM's own heap sizing but no -Xmx: the JVM then sizes the heap, and the
// plan must use the heap it will really pick.
func userSteersHeap(u userSet) bool {
	if u.has("MaxHeapSize") {
		return false
	}
	for _, k := range []string{"MaxRAMPercentage", "MinRAMPercentage", "MaxRAM"} {
		if u.has(k) {
			return true
		}
	}
	return false
}

// physical is the memory the JVM sizes from: the container limit, or an
// explicit -XX:MaxRAM, which replaces it even when larger than the limit
// (measured on JDK 17 and 25: MaxRAM=100m gives a 50 MiB heap at 64 MiB).
func (e ergoInput) physical() int64 {
	if e.maxRAM > 0 {
		return e.maxRAM
	}
	return e.limit
}

// maxHeap is the MaxHeapSize the JVM picks without -Xmx. MinRAMPercentage
// rules while it gives less than the 125 MiB default (below about 250 MB
// with the defaults); above that MaxRAMPercentage does, but never below
// the default: hence the flat 126 MiB between about 250 and 504 MB.
func (e ergoInput) maxHeap() int64 {
	phys := e.physical()
	small := int64(float64(phys) * e.minPct / 100)
	var h int64
	if small < defaultMaxHeapSize {
		h = small
	} else {
		h = max(int64(float64(phys)*e.maxPct/100), defaultMaxHeapSize)
	}
	return alignUp(h, heapAlignment(e.gc, h))
}

// initialHeap is the InitialHeapSize the JVM picks without -Xms:
// InitialRAMPercentage of memory, at least the young and old generations'
// minimum, at most the maximum heap.
func (e ergoInput) initialHeap(maxHeap int64) int64 {
	h := max(int64(float64(e.physical())*e.init/100), 8*mib)
	return min(alignUp(h, heapAlignment(e.gc, maxHeap)), maxHeap)
}

// heapAlignment is the granule HotSpot rounds heap sizes up to: the card
// table's 2 MiB for Serial and Parallel, the region size for G1.
func heapAlignment(gc string, heap int64) int64 {
	if gc == "G1" {
		return g1RegionSize(heap)
	}
	return 2 * mib
}

// g1RegionSize is heap/2048 rounded down to a power of two, 1 to 32 MiB.
func g1RegionSize(heap int64) int64 {
	r := int64(mib)
	for r < 32*mib && r*2 <= heap/2048 {
		r *= 2
	}
	return r
}

func alignUp(v, a int64) int64 { return (v + a - 1) / a * a }

// jdkDefaultHeap is the heap the JDK's own ergonomics give at this limit
// and CPU count: the bound of a plan without a profile, so that the
// launcher never leaves an app less non-heap room than the defaults do.
func jdkDefaultHeap(limit int64, cpus int) int64 {
	gc := "Serial"
	if cpus >= 2 && limit >= 1792*mib {
		gc = "G1"
	}
	return ergoInput{limit: limit, maxPct: 25, minPct: 50, gc: gc}.maxHeap()
}
