package plan

import (
	"fmt"
	"math"

	"github.com/jvmfit/jvmfit/internal/size"
)

const mib = size.MiB

// sizing is the memory split for one limit, before it becomes options.
type sizing struct {
	limit                        int64
	headroom                     int64 // the reserved share; leftovers are added on top
	meta, class, code, direct    int64 // meta is MaxMetaspaceSize (includes class)
	xss                          int64
	threads                      int
	compiler, native, gcOverhead int64
	heap, minHeap                int64
	src                          map[string]string // region → jvmfit, user or profile
	why                          map[string]string
	emitClass                    bool
}

func clamp(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

// frac is f × b in whole MiB.
func frac(b int64, f float64) int64 { return int64(float64(b)*f) / mib * mib }

// headroomFor is the untouched share: 5% of the limit, at least 6 MiB for
// the kernel's own accounting and at most 1 GiB.
func headroomFor(limit int64) int64 { return clamp(frac(limit, 0.05), 6*mib, 1024*mib) }

// sizeNonHeap fills every region but heap and GC overhead.
func (s *sizing) sizeNonHeap(in Input, u userSet, c1 bool, compilers int) {
	L := s.limit
	pr := in.Profile
	if pr == nil {
		pr = &Profile{}
	}
	s.src, s.why = map[string]string{}, map[string]string{}
	set := func(reg, src, why string) { s.src[reg], s.why[reg] = src, why }
	s.headroom = headroomFor(L)
	set(RegHeadroom, "jvmfit", "5% of the limit (6 MiB to 1 GiB) left unused for page cache, libraries and allocator slack")

	// Metaspace: too tight a cap means back-to-back full GCs, so the
	// default is generous for small apps and grows with the container.
	userMeta, _ := u.size("MaxMetaspaceSize")
	switch {
	case userMeta > 0:
		s.meta = userMeta
		set(RegMetaspace, "user", "your "+u.keys["MaxMetaspaceSize"])
	case pr.MetaspaceUsedBytes > 0:
		s.meta = roundUp(pr.MetaspaceUsedBytes*5/4+8*mib, mib)
		set(RegMetaspace, "profile", fmt.Sprintf("measured %s used + 25%% + 8 MiB", size.Format(pr.MetaspaceUsedBytes)))
	case pr.LoadedClasses > 0:
		s.meta = roundUp((8*mib+pr.LoadedClasses*6*size.KiB)*5/4, mib)
		set(RegMetaspace, "profile", fmt.Sprintf("%d loaded classes × 6 KiB + 8 MiB, + 25%%", pr.LoadedClasses))
	default:
		s.meta = clamp(24*mib+frac(L, 0.10), 40*mib, 512*mib)
		set(RegMetaspace, "jvmfit", "24 MiB + 10% of the limit (40 MiB to 512 MiB): room for a Spring-sized app's classes")
	}
	// Class space: the JVM raises anything below 16 MiB to 16 MiB (17+).
	userClass, _ := u.size("CompressedClassSpaceSize")
	s.emitClass = true
	switch {
	case userClass > 0:
		s.class = userClass
		set(RegClass, "user", "your "+u.keys["CompressedClassSpaceSize"])
	case pr.ClassSpaceUsedBytes > 0:
		s.class = max(16*mib, roundUp(pr.ClassSpaceUsedBytes*3/2+4*mib, mib))
		set(RegClass, "profile", fmt.Sprintf("measured %s used × 1.5 + 4 MiB", size.Format(pr.ClassSpaceUsedBytes)))
	default:
		s.class = max(16*mib, s.meta/4/mib*mib)
		set(RegClass, "jvmfit", "a quarter of metaspace, at least 16 MiB (the JVM's floor)")
	}
	if s.class+8*mib > s.meta {
		if userMeta > 0 || s.src[RegClass] == "user" {
			// Leave the class space to the JVM inside the user's cap.
			s.class, s.emitClass = 0, false
		} else {
			s.meta = s.class + 8*mib
		}
	}

	userCode, _ := u.size("ReservedCodeCacheSize")
	switch {
	case userCode > 0:
		s.code = userCode
		set(RegCode, "user", "your "+u.keys["ReservedCodeCacheSize"])
	case pr.CodeCacheUsedBytes > 0:
		floor := 32 * mib
		if c1 {
			floor = 8 * mib
		}
		s.code = max(floor, roundUp(pr.CodeCacheUsedBytes*3/2+4*mib, mib))
		set(RegCode, "profile", fmt.Sprintf("measured %s used × 1.5 + 4 MiB", size.Format(pr.CodeCacheUsedBytes)))
	case c1:
		s.code = clamp(4*mib+frac(L, 0.05), 10*mib, 48*mib)
		set(RegCode, "jvmfit", "C1 only: 4 MiB + 5% of the limit (10 to 48 MiB) instead of the JVM's 48 MiB")
	default:
		s.code = clamp(16*mib+frac(L, 0.06), 48*mib, 240*mib)
		set(RegCode, "jvmfit", "C1+C2: 16 MiB + 6% of the limit (48 to 240 MiB) instead of a flat 240 MiB")
	}

	userXss, _ := u.size("ThreadStackSize")
	switch {
	case userXss > 0:
		s.xss = userXss
	case L < 1024*mib:
		s.xss = 512 * size.KiB
	default:
		s.xss = 1024 * size.KiB
	}
	if pr.PeakThreads > 0 {
		s.threads = int(pr.PeakThreads*5/4 + 4)
		set(RegStacks, "profile", fmt.Sprintf("%d threads (measured peak %d + 25%% + 4) × %s", s.threads, pr.PeakThreads, size.Format(s.xss)))
	} else {
		s.threads = int(clamp(int64(math.Round(20+12*math.Log2(float64(L)/float64(128*mib)))), 20, 300))
		set(RegStacks, "jvmfit", fmt.Sprintf("%d threads (20 at 128 MiB, +12 per doubling) × %s stack", s.threads, size.Format(s.xss)))
	}
	if userXss > 0 {
		s.src[RegStacks] = "user"
		s.why[RegStacks] = fmt.Sprintf("%d threads × your %s", s.threads, u.keys["ThreadStackSize"])
	}

	userDirect, _ := u.size("MaxDirectMemorySize")
	switch {
	case userDirect > 0:
		s.direct = userDirect
		set(RegDirect, "user", "your "+u.keys["MaxDirectMemorySize"])
	case pr.DirectMemoryBytes > 0:
		s.direct = roundUp(pr.DirectMemoryBytes*3/2+4*mib, mib)
		set(RegDirect, "profile", fmt.Sprintf("measured %s × 1.5 + 4 MiB", size.Format(pr.DirectMemoryBytes)))
	default:
		s.direct = clamp(L/32/mib*mib, 8*mib, 1024*mib)
		set(RegDirect, "jvmfit", "1/32 of the limit (8 MiB to 1 GiB); the JVM's default is the heap size, which does not fit")
	}

	if c1 {
		s.compiler = 2*mib + 2*mib*int64(compilers)
		set(RegCompiler, "jvmfit", fmt.Sprintf("C1 arenas: 2 MiB + 2 MiB × %d compiler threads", compilers))
	} else {
		s.compiler = 8*mib + 8*mib*int64(compilers)
		set(RegCompiler, "jvmfit", fmt.Sprintf("C2 arenas: 8 MiB + 8 MiB × %d compiler threads", compilers))
	}
	s.native = clamp(6*mib+frac(L, 0.02), 6*mib, 512*mib)
	set(RegNative, "jvmfit", "symbols, class loader data, libc, NIO: 6 MiB + 2% of the limit (up to 512 MiB)")
}

// nonHeap is every region but heap, GC overhead and headroom.
func (s *sizing) nonHeap() int64 {
	return s.meta + s.code + s.xss*int64(s.threads) + s.direct + s.compiler + s.native
}

// gcPct is each collector's native overhead as a share of the heap (card
// tables, mark bitmaps, remembered sets).
func gcPct(gc string) float64 {
	switch gc {
	case "G1":
		return 0.06
	case "Parallel":
		return 0.03
	case "Serial":
		return 0.02
	}
	return 0.08 // Z, Shenandoah or unknown: be careful
}

// heapRoom is the largest heap that leaves room for everything else.
func (s *sizing) heapRoom(gc string) int64 {
	free := s.limit - s.headroom - s.nonHeap() - 2*mib
	if free <= 0 {
		return 0
	}
	return int64(float64(free) / (1 + gcPct(gc)))
}

// alignHeap rounds a heap down to what the JVM will report: 2 MiB, or the
// G1 region size (heap/2048, a power of two up to 32 MiB) when larger.
func alignHeap(h int64) int64 {
	a := 2 * mib
	for a < 32*mib && a*2 <= h/2048 {
		a *= 2
	}
	return h / a * a
}

func roundUp(v, to int64) int64 { return (v + to - 1) / to * to }

// shrink takes up to need bytes from the regions jvmfit sized (never the
// user's or the profile's), each down to its floor, in proportion to what
// it has above the floor. It returns false when the floors are not enough.
func (s *sizing) shrink(need int64, c1 bool) bool {
	type flex struct {
		reg   string
		v     *int64
		floor int64
	}
	codeFloor := int64(32 * mib)
	if c1 {
		codeFloor = 8 * mib
	}
	threads := int64(s.threads)
	stacks := s.xss * threads
	all := []flex{
		{RegMetaspace, &s.meta, max(32*mib, s.class+8*mib)},
		{RegCode, &s.code, codeFloor},
		{RegDirect, &s.direct, 4 * mib},
		{RegStacks, &stacks, s.xss * 16},
	}
	var spare int64
	var fl []flex
	for _, f := range all {
		if s.src[f.reg] == "jvmfit" && *f.v > f.floor {
			fl = append(fl, f)
			spare += *f.v - f.floor
		}
	}
	if spare < need {
		return false
	}
	for _, f := range fl {
		cut := roundUp(int64(float64(need)*float64(*f.v-f.floor)/float64(spare)), mib)
		*f.v = max(f.floor, *f.v-cut)
		s.why[f.reg] += "; shrunk to make room for the heap"
	}
	s.threads = int(stacks / s.xss)
	return true
}
