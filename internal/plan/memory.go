package plan

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

const mib = size.MiB

// sizing is the memory split for one limit, before it becomes options.
// Every region is what the process really holds resident at its peak, not
// what the JVM reserves (docs/launcher.md, "Accounting").
type sizing struct {
	limit    int64
	headroom int64 // the reserved share; leftovers are added on top
	heap     int64
	minHeap  int64
	// meta is MaxMetaspaceSize (metaspace and class space together); class
	// is the part of it shown as class space (0: not shown apart).
	meta, class  int64
	code, direct int64
	codeCap      int64 // the emitted ReservedCodeCacheSize, 0 for none
	// metaCap and directCap are the emitted MaxMetaspaceSize and
	// MaxDirectMemorySize: every cap is its region, counted whole.
	metaCap, directCap int64
	xss, stackRes      int64 // Xss, and the part of it a thread touches
	threads            int
	cds, kernel        int64
	alloc, compiler    int64
	native             int64 // symbols, class loader data, NIO, internals
	gcOverhead         int64
	// measuredNative is true when native is the profile's peak uncapped
	// native, which already holds GC, stacks and malloc slack, and the
	// compiler unless compilerApart (measured under another compiler).
	measuredNative, compilerApart bool
	shareOff                      bool // the user's -Xshare:off: no archive
	// archiveGone is the part of the profile's archive (an AOT cache, a
	// dynamic archive) the plan's options do not map: its classes load
	// into metaspace instead.
	archiveGone int64
	// archiveNew is the CDS archive the plan's options map and the profile
	// did not: its classes' metadata is not in metaspace (archiveTakeover).
	archiveNew int64
	// jdkHeap is the JDK's regime of a plan without a profile (budget.go):
	// the JDK's heap, metaspace uncapped and direct memory a little above
	// the JDK's own cap unless sized.
	jdkHeap bool
	// starved is why Fit takes the JDK's heap over a plan whose margins
	// leave the heap under the measured live set (marginsStarve).
	starved string
	// lean is Plan.Doubt for a plan whose margins were shrunk to what the
	// profile measured (lean.go); "" otherwise.
	lean string
	// budget is the budget's regime (budget.go): caps above what any panel
	// app used, not all counted whole.
	budget   bool
	src, why map[string]string
}

func (s *sizing) set(reg, src, why string) { s.src[reg], s.why[reg] = src, why }

func clamp(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

// frac is f × b in whole MiB.
func frac(b int64, f float64) int64 { return int64(float64(b)*f) / mib * mib }

func roundUp(v, to int64) int64 { return (v + to - 1) / to * to }

// headroomFor is the untouched share: 5% of the limit, at least 6 MiB for
// page cache the app writes (logs) and at most 1 GiB.
func headroomFor(limit int64) int64 { return clamp(frac(limit, 0.05), 6*mib, 1024*mib) }

// fixed is every region that does not depend on the heap or on the room
// left for metaspace: CDS, kernel, allocator, compiler, code cache, stacks,
// and (with a profile) the measured native.
func (s *sizing) fixed() int64 {
	f := s.cds + s.kernel + s.code
	if !s.measuredNative {
		f += s.alloc + s.stacks()
	}
	if !s.measuredNative || s.compilerApart {
		f += s.compiler
	}
	return f
}

func (s *sizing) stacks() int64 { return s.stackRes * int64(s.threads) }

// nonHeap is every region but heap and headroom.
func (s *sizing) nonHeap() int64 {
	return s.fixed() + s.meta + s.direct + s.native + s.gcOverhead
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
		return 0.01
	}
	return 0.08 // Z, Shenandoah or unknown: be careful
}

func gcOverheadFor(gc string, heap int64) int64 {
	return roundUp(mib/2+int64(float64(heap)*gcPct(gc)), mib)
}

// alignHeap rounds a heap down to what the JVM will report: 2 MiB, or the
// G1 region size when larger.
func alignHeap(h int64) int64 {
	a := max(2*mib, g1RegionSize(h))
	return h / a * a
}

// explainNonHeap lists the non-heap regions for a refusal, so that the
// numbers in the message add up.
func (s *sizing) explainNonHeap() string {
	own := b2i(!s.measuredNative)
	comp := b2i(!s.measuredNative || s.compilerApart)
	return fmt.Sprintf("metaspace %s, code cache %s, CDS archive %s, native and compiler %s, stacks %s, direct %s, GC %s, kernel %s",
		size.Format(s.meta), size.Format(s.code), size.Format(s.cds),
		size.Format(s.native+s.alloc*own+s.compiler*comp),
		size.Format(s.stacks()*own), size.Format(s.direct), size.Format(s.gcOverhead), size.Format(s.kernel))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
