package hsperf

import (
	"fmt"
	"strings"
	"time"
)

// Generation is one heap generation's footprint (bytes).
type Generation struct {
	Name      string
	Used      int64 // sum of its spaces' used
	Committed int64 // capacity
	Max       int64 // maxCapacity
}

// Collector is one GC counter set (sun.gc.collector.N).
type Collector struct {
	Index       int
	Name        string        // e.g. "G1 young collection pauses", "Copy", "PSScavenge"
	Kind        string        // CollectorYoung, CollectorOld or CollectorConcurrent
	Invocations int64         // started, including one still running
	Completed   int64         // finished: Invocations less one while InProgress
	InProgress  bool          // lastEntryTime after lastExitTime
	Time        time.Duration // accumulated pause time
}

// Collector kinds.
const (
	CollectorYoung      = "young"
	CollectorOld        = "old"
	CollectorConcurrent = "concurrent"
)

// JVM is the footprint view of a snapshot that jvmfit samples. Absent
// counters leave zero values.
type JVM struct {
	Policy   string // sun.gc.policy.name, e.g. "Copy:MSC", "ParScav:MSC", "GarbageFirst"; "" for ZGC/Shenandoah
	Version  string // java.property.java.vm.version
	Young    Generation
	Old      Generation
	HeapUsed int64
	// HeapCommitted is the heap's mapped size: the sum of the generations'
	// capacities.
	HeapCommitted int64
	// HeapMax is the -Xmx the JVM is running with: the generations' maxima
	// summed where they are separate (Serial, Parallel), the shared maximum
	// otherwise (G1, ZGC, Shenandoah report the whole heap for each).
	HeapMax int64

	MetaspaceUsed, MetaspaceCommitted, MetaspaceMax    int64
	ClassSpaceUsed, ClassSpaceCommitted, ClassSpaceMax int64

	Collectors []Collector // empty on JDK 11's ZGC, which publishes none
	// GC counts are of finished collections. The JVM counts a collection when
	// it starts but updates the space counters when it ends, so a reading
	// taken mid-GC would pair the new count with the old sizes.
	YoungGCs    int64
	OldGCs      int64 // full collections; for ZGC, whole-heap/major cycles
	Concurrent  int64 // G1 concurrent-cycle pauses (remark, cleanup)
	InGC        bool  // a collector was running at the time of the reading
	YoungGCTime time.Duration
	OldGCTime   time.Duration
	GCTime      time.Duration // all collectors
	Safepoint   time.Duration // sun.rt.safepointTime

	Threads, DaemonThreads, ThreadsPeak int64
	ClassesLoaded, ClassesUnloaded      int64
	CompiledCodeBytes                   int64 // sun.ci.nmethodCodeSize: JIT code produced so far (no code-cache size counter exists)

	VMStart   time.Time     // sun.rt.createVmBeginTime
	VMInit    time.Duration // createVmBeginTime → createVmEndTime
	Uptime    time.Duration // sun.os.hrt.ticks, when the JVM publishes it
	Frequency int64
}

// JVM extracts the footprint view. Collectors are matched by index, which is
// stable from JDK 11 to 25 while their names are not: 0 is the young
// collector, 1 the full/old one, 2 G1's concurrent-cycle pauses or ZGC's
// major (whole-heap) cycles.
func (s *Snapshot) JVM() JVM {
	j := JVM{Frequency: s.Frequency()}
	j.Policy, _ = s.String("sun.gc.policy.name")
	j.Version, _ = s.String("java.property.java.vm.version")
	j.Young = s.generation(0)
	j.Old = s.generation(1)
	j.HeapUsed = j.Young.Used + j.Old.Used
	j.HeapCommitted = j.Young.Committed + j.Old.Committed
	j.HeapMax = heapMax(j.Policy, j.Young.Max, j.Old.Max)

	j.MetaspaceUsed = s.long("sun.gc.metaspace.used")
	j.MetaspaceCommitted = s.long("sun.gc.metaspace.capacity")
	j.MetaspaceMax = s.long("sun.gc.metaspace.maxCapacity")
	j.ClassSpaceUsed = s.long("sun.gc.compressedclassspace.used")
	j.ClassSpaceCommitted = s.long("sun.gc.compressedclassspace.capacity")
	j.ClassSpaceMax = s.long("sun.gc.compressedclassspace.maxCapacity")

	_, hasFull := s.Long("sun.gc.collector.1.invocations")
	for i := 0; i < 8; i++ {
		p := fmt.Sprintf("sun.gc.collector.%d.", i)
		n, ok := s.Long(p + "invocations")
		if !ok {
			continue
		}
		c := Collector{Index: i, Invocations: n, Completed: n}
		if s.long(p+"lastEntryTime") > s.long(p+"lastExitTime") && n > 0 {
			c.InProgress, c.Completed = true, n-1
			j.InGC = true
		}
		c.Name, _ = s.String(p + "name")
		c.Time, _ = s.Ticks(p + "time")
		c.Kind = collectorKind(i, c.Name, hasFull)
		j.Collectors = append(j.Collectors, c)
		j.GCTime += c.Time
		switch c.Kind {
		case CollectorYoung:
			j.YoungGCs += c.Completed
			j.YoungGCTime += c.Time
		case CollectorOld:
			j.OldGCs += c.Completed
			j.OldGCTime += c.Time
		default:
			j.Concurrent += c.Completed
		}
	}
	j.Safepoint, _ = s.Ticks("sun.rt.safepointTime")

	j.Threads = s.long("java.threads.live")
	j.DaemonThreads = s.long("java.threads.daemon")
	j.ThreadsPeak = s.long("java.threads.livePeak")
	// Classes from the CDS archive are counted apart (as jstat -class adds them).
	j.ClassesLoaded = s.long("java.cls.loadedClasses") + s.long("java.cls.sharedLoadedClasses")
	j.ClassesUnloaded = s.long("java.cls.unloadedClasses") + s.long("java.cls.sharedUnloadedClasses")
	j.CompiledCodeBytes = s.long("sun.ci.nmethodCodeSize")

	if begin, ok := s.Long("sun.rt.createVmBeginTime"); ok && begin > 0 {
		j.VMStart = time.UnixMilli(begin)
		if end := s.long("sun.rt.createVmEndTime"); end >= begin {
			j.VMInit = time.Duration(end-begin) * time.Millisecond
		}
	}
	j.Uptime, _ = s.Ticks("sun.os.hrt.ticks")
	return j
}

func (s *Snapshot) long(name string) int64 {
	v, _ := s.Long(name)
	return v
}

func (s *Snapshot) generation(g int) Generation {
	p := fmt.Sprintf("sun.gc.generation.%d.", g)
	gen := Generation{
		Committed: s.long(p + "capacity"),
		Max:       s.long(p + "maxCapacity"),
	}
	gen.Name, _ = s.String(p + "name")
	spaces := s.long(p + "spaces")
	for i := int64(0); i < spaces && i < 16; i++ {
		gen.Used += s.long(fmt.Sprintf("%sspace.%d.used", p, i))
	}
	return gen
}

// Two-generation policies ("Copy:MSC", "ParScav:MSC", "ParNew:CMS") have
// physically separate generations. G1, ZGC and Shenandoah give each
// generation the whole heap as maximum; JDK 11's G1 adds a few bytes of
// padding, which rounding to a page removes.
func heapMax(policy string, young, old int64) int64 {
	if strings.Contains(policy, ":") {
		return young + old
	}
	m := max(young, old)
	return m &^ 4095
}

func collectorKind(i int, name string, hasFull bool) string {
	switch {
	case i == 0:
		return CollectorYoung
	case i == 1:
		return CollectorOld
	case !hasFull, strings.Contains(strings.ToLower(name), "major"):
		// ZGC: its cycles (or generational ZGC's major ones) collect the
		// whole heap, which is what "old GC" means for the live set.
		return CollectorOld
	default:
		return CollectorConcurrent
	}
}
