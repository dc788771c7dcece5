package plan

import "math/bits"

// smallLimit is the seed-000 threshold below which C2 costs more memory
// than it gives back: C1 only at or below it.
const smallLimit = 300 * mib

// c1Threads is the most threads a profile may show for balanced to take
// C1 only at or below smallLimit. C1 inlines less than C2, so each frame
// of a deep call chain is bigger: threads (320 threads, 1,000-frame
// recursion) committed ~115 KiB more stack per thread under C1 (NMT
// Thread 88 MiB against 50). C1 saves ~20 MiB (compiler arenas 8 MiB
// against 20, code cache 11-13 MiB used against 18-23), about 170 such
// threads; 100 leaves a margin for apps deeper still.
const c1Threads = 100

// threads is the profile's count of OS threads: measured (a trial, --pid),
// or, from a metrics endpoint that counts Java threads only, those plus
// the VM's own, as the stacks are sized (nonheap.go); 0 when it has
// neither. A production profile scraped from Micrometer or client_java
// then decides C1 as a trial's does.
func (pr *Profile) threads() int64 {
	switch {
	case pr == nil:
		return 0
	case pr.PeakThreads > 0:
		return pr.PeakThreads
	case pr.PeakJavaThreads > 0:
		return pr.PeakJavaThreads + vmThreads
	}
	return 0
}

// fewThreads says whether a profile measured at most c1Threads threads;
// without a profile (or without a thread count) nobody knows, so no.
func fewThreads(pr *Profile) bool {
	n := pr.threads()
	return n > 0 && n <= c1Threads
}

// c1BreakEven is the thread count above which C1's bigger frames cost
// threads' deep stacks more than C1 saves (the ~170 of c1Threads' note).
// footprint takes C1 unless a profile counts more: there C1 is the bet,
// so it yields only past the break-even, not at balanced's margin.
const c1BreakEven = 170

// manyThreads says whether a profile measured more than c1BreakEven
// threads; without a profile nobody knows, so no.
func manyThreads(pr *Profile) bool {
	return pr.threads() > c1BreakEven
}

// leanInline is the largest hot callee (bytecodes) C2 inlines under
// balanced and footprint at or below smallLimit when C2 runs; HotSpot's
// own is 325 on x86. C2's arenas peak with its largest compile, and
// inlining is what makes a compile large: with this value, sort's NMT
// Arena Chunk + Compiler peak was 12 MiB against 33 with HotSpot's own,
// and the cgroup peak 10-16 MiB lower on sort, heapbound, filecache and
// directbuf, at no measured cost in throughput (1 CPU, 256 MiB, JDK 17;
// bench/goalcost.sh's c2full mode, docs/launcher.md, "C2's inlining at
// small limits"). Unlike C1 only, C2 still compiles the hot code, so
// deep stacks keep C2's small frames.
const leanInline = 100

// leanC2 says whether C2 should inline less: it runs (tiered), the goal
// does not put speed first, and the limit is small enough that seed 000
// found C2's memory not worth it.
func leanC2(goal string, c1, tieredOff bool, limit int64) bool {
	return !c1 && !tieredOff && goal != Throughput && limit <= smallLimit
}

// jvmCompilerCount is HotSpot's own tiered formula, applied to the CPUs
// the container really has: log2(n)·log2(log2(n))·3/2, at least 2.
func jvmCompilerCount(n int) int {
	lg := bits.Len(uint(n)) - 1
	lglg := bits.Len(uint(max(lg, 1))) - 1
	return max(lg*lglg*3/2, 2)
}

// compilerCount is the number of JIT threads: C1 alone needs one per two
// CPUs (max 4); tiered keeps the JVM's formula, which must be at least 2.
func compilerCount(n int, c1, tieredOff bool) int {
	switch {
	case c1:
		return min(max(n/2, 1), 4)
	case tieredOff:
		return max(jvmCompilerCount(n)/2, 1)
	}
	return jvmCompilerCount(n)
}

// parallelGCThreads is HotSpot's formula: n up to 8, then 5/8 per CPU.
func parallelGCThreads(n int) int {
	if n <= 8 {
		return n
	}
	return 8 + (n-8)*5/8
}

// chooseGC picks the collector for a goal, CPU count and heap size.
func chooseGC(goal string, n int, heap int64) string {
	if n < 2 {
		return "Serial" // one CPU: nothing to parallelise, least overhead
	}
	switch goal {
	case Footprint:
		if heap < 64*mib {
			return "Serial"
		}
		return "Parallel"
	case Throughput:
		if heap >= 512*mib {
			return "G1"
		}
		return "Parallel"
	}
	switch {
	case heap < 256*mib:
		return "Serial"
	case heap >= 1536*mib:
		return "G1"
	}
	return "Parallel"
}
