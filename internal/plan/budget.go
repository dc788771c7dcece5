package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Without a profile the plan cannot know an app's metaspace, direct
// memory or native, so it has two regimes (docs/launcher.md, "Without a
// profile"):
//
//   - the JDK's regime: where the non-heap budget below would leave less
//     heap than the JDK's own ergonomics give, the heap is the JDK's own,
//     metaspace keeps the JDK's own choice (no cap) and direct memory a
//     cap a little above the JDK's own (noProfJDKDirect).
//     The app then has the heap and the non-heap room it has under the
//     defaults, less what C1, fewer compiler threads, a smaller code cache
//     and two malloc arenas save (C1 can cost stack memory: an app with
//     hundreds of deep stacks, threads on the panel, lost to the defaults).
//   - the budget's regime (large containers): the non-heap gets a budget
//     of the largest non-heap measured across the panel plus a margin,
//     the caps in it each above what any panel app used but not all
//     counted whole, and the heap all the budget leaves.
//
// The panel's measured non-heap (cgroup peak less the committed heap,
// JDK 17, 1 CPU, the JDK's defaults; docs/launcher.md has the table): the
// largest is catalog, 19k classes: metaspace 97 MiB used (105 committed
// with class space), code cache 38 MiB, symbols 22 MiB, 220 MiB of
// non-heap in all at 1 GiB. The caps below hold it with a margin.

// Metaspace cap without a profile in the budget's regime: at least
// noProfMetaMin (catalog's 105 MiB committed and 20% more, so that no
// panel app stops on a cap the defaults do not have), L/8 above that, at
// most a few times catalog's (footprint 128 MiB: about catalog's own).
const noProfMetaMin = 128 * mib

func noProfMetaMax(goal string) int64 {
	if goal == Footprint {
		return 128 * mib
	}
	return 256 * mib
}

// Direct memory cap without a profile in the budget's regime: L/16, at
// least noProfDirectMin (directbuf, the panel's direct-memory service,
// peaked at 68 MiB of NIO direct buffers: 1.9×; the JDK's own cap is the
// heap), at most 256 MiB (footprint 96 to 128 MiB, 1.4-1.9×).
const noProfDirectMin = 128 * mib

func noProfDirectRange(goal string) (lo, hi int64) {
	if goal == Footprint {
		return 96 * mib, 128 * mib
	}
	return noProfDirectMin, 256 * mib
}

// Netty's pooled allocator (PooledByteBufAllocator's defaults), the most
// common user of direct memory: it reserves 4 MiB chunks, and it sizes its
// direct arenas from the cap, min(2 × CPUs, cap / chunk / 2 / 3), one more
// arena per 24 MiB of cap. Each arena keeps chunks of its own, so an
// arena more costs the pool more chunks: directbuf (2 CPUs, 200 req/s)
// peaked at 56-68 MiB with 2 arenas and 68-76 MiB with 3 or 4.
const (
	poolChunk     = 4 * mib
	poolArenaStep = 6 * poolChunk
)

// jdkOwnDirect is the JDK's own direct memory cap with no
// MaxDirectMemorySize: Runtime.maxMemory(), under Serial the heap less one
// survivor space (young a third of the heap, a survivor a tenth of young,
// 64 KiB aligned): 61.9 MiB for -Xmx64m, 65.8 MiB for -Xmx68m.
func jdkOwnDirect(heap int64) int64 {
	const align = 64 << 10
	return heap - heap/30/align*align
}

// noProfJDKDirect is the direct memory cap of a plan without a profile in
// the JDK's regime: the JDK's own cap raised to the heap and one pool
// chunk more, but not to the next 24 MiB step of Netty's arena count
// (while the CPUs still bound it), and never below the JDK's own. The
// JDK's own cap, which the plan used to leave in place, withholds a
// survivor space: with it directbuf's pool (its store and requests take
// 14 to 17 chunks) could not reserve its 17th chunk at 136Mi, 68 MiB
// beside 9 bytes of unpooled buffers, and failed with "Cannot reserve ...
// bytes of direct buffer memory" while the cgroup held it. A cap far above
// the JDK's would let garbage direct buffers wait longer for the GC the
// cap triggers, and cost a Netty app an arena more.
func noProfJDKDirect(heap int64, cpus int) int64 {
	own := jdkOwnDirect(heap)
	c := heap + poolChunk
	if arenas := own / poolArenaStep; arenas < int64(2*cpus) {
		c = min(c, (arenas+1)*poolArenaStep-mib)
	}
	return max(roundUp(own, mib), c)
}

// footprintHeapShare is the part of what the budget leaves that footprint
// gives the heap: the rest stays unassigned, so the heap (and with free
// ratios 10/20 its RSS) stays smaller than balanced's in the same limit.
const footprintHeapShare = 0.7

// noProfCaps is metaspace and direct memory in the budget's regime, each
// only where the user or a profile did not size it.
func (s *sizing) noProfCaps(goal string) {
	if s.meta == 0 {
		s.meta = clamp(s.limit/8/mib*mib, noProfMetaMin, noProfMetaMax(goal))
		s.set(RegMetaspace, "jvmfit", fmt.Sprintf("not measured: L/8, %s to %s for %s (catalog, the panel's largest, commits 105 MiB)",
			size.Format(noProfMetaMin), size.Format(noProfMetaMax(goal)), goal))
	}
	if s.direct == 0 {
		lo, hi := noProfDirectRange(goal)
		s.direct = clamp(s.limit/16/mib*mib, lo, hi)
		s.set(RegDirect, "jvmfit", fmt.Sprintf("not measured: L/16, %s to %s for %s (directbuf, the panel's direct-memory service, peaks at 68 MiB)", size.Format(lo), size.Format(hi), goal))
	}
	if !s.measuredNative {
		s.native = s.nativeFor(s.meta)
	}
}

// panelNonHeap is the largest non-heap measured across the panel:
// catalog's 219.9 MiB under the JDK's defaults at 1 GiB, tiered with two
// compiler threads (docs/launcher.md, "The panel's measured non-heap").
const panelNonHeap = 220 * mib

// budgetMargin is the margin on it: catalog's metaspace with 25% more
// classes, or threads' 337 stacks beside directbuf's 68 MiB of buffers.
const budgetMargin = 0.25

// nonHeapBudget is what the budget's regime sets aside for everything
// but the heap and the headroom: the panel's largest non-heap plus the
// margin, the compiler threads beyond catalog's two (a tiered burst
// each), and 5% of the limit above 1 GiB (bigger containers hold bigger
// apps). The caps inside it (metaspace, direct, code cache) are each
// above what any panel app used, but they are not all counted whole: no
// panel app comes near two of them at once. A user's or a profile's
// sizes are counted whole.
func (s *sizing) nonHeapBudget() int64 {
	b := int64(float64(panelNonHeap)*(1+budgetMargin)) + max(0, s.compiler-20*mib) + max(0, (s.limit-size.GiB)/20)
	if s.src[RegMetaspace] != "jvmfit" || s.src[RegDirect] != "jvmfit" || s.measuredNative {
		b = max(b, s.fixed()+s.meta+s.direct+s.native)
	}
	return roundUp(b, mib)
}

// budgetHeap is the heap the non-heap budget leaves at this limit for gc
// (0 when it leaves none): the limit less headroom, the budget, and the
// collector's share of the heap itself.
func (s *sizing) budgetHeap(gc string) int64 {
	free := s.limit - s.headroom - s.nonHeapBudget() - mib
	if free <= 0 {
		return 0
	}
	return alignHeap(int64(float64(free-mib/2) / (1 + gcPct(gc))))
}

// noProfileHeap sizes the heap of a plan without a measured profile. It
// returns the heap and whether the budget's regime applies (caps
// emitted); otherwise the JDK's regime: the JDK's heap, metaspace and
// direct memory uncapped.
func (s *sizing) noProfileHeap(in Input, n int, gc string) (int64, bool) {
	def := jdkDefaultHeap(s.limit, n)
	meta, direct, native := s.meta, s.direct, s.native
	s.noProfCaps(in.Goal)
	h := s.budgetHeap(gc)
	if in.Goal == Footprint {
		h = alignHeap(int64(float64(h) * footprintHeapShare))
	}
	if h > def {
		s.budget = true
		why := fmt.Sprintf("no profile: all that a %s non-heap budget leaves (the panel's largest non-heap, catalog's 220 MiB, + 25%%: docs/launcher.md)", size.Format(s.nonHeapBudget()))
		if in.Goal == Footprint {
			why = fmt.Sprintf("footprint, no profile: %.0f%% of what the non-heap budget leaves (the rest unassigned, so RSS stays lower)", footprintHeapShare*100)
		}
		s.set(RegHeap, "jvmfit", why+fmt.Sprintf("; the JDK would take %s", size.Format(def)))
		return h, true
	}
	s.meta, s.direct, s.native = meta, direct, native
	s.set(RegHeap, "jvmfit", fmt.Sprintf("the heap the JDK itself picks at %s: no profile, and the non-heap budget would leave less", size.Format(s.limit)))
	return def, false
}

// jdkRegime sets the caps of a plan in the JDK's regime: metaspace keeps
// the JDK's own limit (none) and direct memory a cap no smaller than the
// JDK's own (noProfJDKDirect) unless the user or a profile sized them.
// regions shows the estimates of what no option caps only as far as the
// limit holds them after the heap.
func (s *sizing) jdkRegime(cpus int) {
	s.jdkHeap = true
	if s.meta == 0 {
		s.set(RegMetaspace, "jvmfit", "not capped: no profile, so the JDK's own choice (no MaxMetaspaceSize), as under the defaults; shown as what the limit leaves")
	} else {
		s.metaCap = s.meta
	}
	if s.direct == 0 {
		s.direct = directFloor
		s.directCap = noProfJDKDirect(s.heap, cpus)
		s.set(RegDirect, "jvmfit", fmt.Sprintf("no profile: the heap and one 4 MiB pool chunk (Netty's) more, where that adds no Netty arena; the JDK's own cap, %s, is the heap less a survivor space; %s counted",
			size.Format(jdkOwnDirect(s.heap)), size.Format(directFloor)))
	} else {
		s.directCap = s.direct
	}
	if s.native == 0 && !s.measuredNative {
		s.native = s.nativeFor(max(s.meta, metaFloor))
	}
}

// clipToLimit shows a plan's estimates as far as the limit less reserve
// holds them: the heap, the GC and what the user or a profile sized come
// first, whole; then jvmfit's estimates in order, each at most what is
// still left. The metaspace region (when not capped) is the rest less the
// headroom the limit still holds. In the JDK's regime the estimates are
// not reservations; in the budget's the caps are not all counted whole.
func clipToLimit(rs []Region, limit, reserve int64, metaUncapped bool, note string) {
	order := []string{RegHeap, RegGC, RegCDS, RegKernel, RegCode, RegCompiler, RegStacks, RegAlloc, RegClass, RegDirect, RegNative, RegMetaspace}
	left := limit - reserve
	clip := func(r *Region) {
		if r.Name == RegMetaspace && metaUncapped {
			r.Bytes = max(0, left-headroomFor(limit))
		}
		if r.Bytes > left && r.Name != RegHeap && r.Name != RegGC {
			r.Bytes = max(0, left)
			r.Why += note
		}
		left -= r.Bytes
	}
	for pass := 0; pass < 2; pass++ {
		for _, name := range order {
			for i := range rs {
				first := name == RegHeap || name == RegGC || rs[i].Source != "jvmfit"
				if rs[i].Name == name && first == (pass == 0) {
					clip(&rs[i])
				}
			}
		}
	}
}
