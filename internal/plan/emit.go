package plan

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

// emitter adds options to a plan, skipping any the user already set.
type emitter struct {
	p *Plan
	u userSet
	j jdk.JDK
}

// add emits opt unless the user set key (then the user's option is kept)
// or the JDK does not accept it.
func (e *emitter) add(key, opt, value, region, why string) {
	if e.u.has(key) {
		e.p.Kept = appendOnce(e.p.Kept, e.u.keys[key])
		return
	}
	if !strings.HasPrefix(key, "-") && key != "gc" && !e.j.Accepts(key) {
		e.p.Warnings = append(e.p.Warnings, fmt.Sprintf("JDK %d does not accept %s; not emitted", e.j.Version, key))
		return
	}
	e.p.Options = append(e.p.Options, opt)
	e.p.Reasons = append(e.p.Reasons, Reason{Option: opt, Name: key, Value: value, Region: region, Why: why})
}

func appendOnce(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

func (e *emitter) xx(key, value, region, why string) {
	e.add(key, "-XX:"+key+"="+value, value, region, why)
}

func (e *emitter) on(key, region, why string) { e.add(key, "-XX:+"+key, "true", region, why) }

func (e *emitter) memory(s *sizing, in Input) {
	if !userSteersHeap(e.u) {
		h := size.JVM(s.heap)
		e.add("MaxHeapSize", "-Xmx"+h, h, RegHeap, e.p.Region(RegHeap).Why)
	} else {
		for _, k := range []string{"MaxRAMPercentage", "MinRAMPercentage", "MaxRAM"} {
			if e.u.has(k) {
				e.p.Kept = appendOnce(e.p.Kept, e.u.keys[k])
			}
		}
	}
	switch {
	case in.InitMemRatio > 0:
		xms := alignHeap(min(frac(s.limit, in.InitMemRatio/100), s.heap))
		e.add("InitialHeapSize", "-Xms"+size.JVM(xms), size.JVM(xms), RegHeap, fmt.Sprintf("JAVA_INIT_MEM_RATIO=%g%% of the limit", in.InitMemRatio))
	case in.Goal == Throughput && !userSteersHeap(e.u):
		// (with the user's RAM percentages the JVM sizes the heap; an
		// -Xms from the model would raise it if the model were off)
		e.add("InitialHeapSize", "-Xms"+size.JVM(s.heap), size.JVM(s.heap), RegHeap, "throughput: start at full size, no resizing pauses")
	}
	if s.metaCap > 0 { // 0: the JDK's own choice (budget.go), or Fit leaves it uncapped
		e.xx("MaxMetaspaceSize", size.JVM(s.metaCap), RegMetaspace, metaCapWhy(s))
	}
	if s.codeCap > 0 {
		e.xx("ReservedCodeCacheSize", size.JVM(s.codeCap), RegCode, s.why[RegCode])
	}
	xss := size.JVM(s.xss)
	e.add("ThreadStackSize", "-Xss"+xss, xss, RegStacks, fmt.Sprintf("stack per thread; %d threads counted at the %s each touches", s.threads, size.Format(s.stackRes)))
	if s.directCap > 0 {
		e.xx("MaxDirectMemorySize", size.JVM(s.directCap), RegDirect, directCapWhy(s))
	}
}

func (e *emitter) gc(gc, goal string, n int) {
	switch gc {
	case "Serial":
		e.on("UseSerialGC", RegGC, serialWhy(n))
	case "Parallel":
		e.on("UseParallelGC", RegGC, fmt.Sprintf("%d CPUs and a %s heap: parallel young and old collections, compact footprint", n, size.Format(e.p.HeapBytes())))
	case "G1":
		e.on("UseG1GC", RegGC, fmt.Sprintf("%d CPUs and a %s heap: short pauses on a large heap", n, size.Format(e.p.HeapBytes())))
	default:
		e.p.Kept = appendOnce(e.p.Kept, e.u.keys["gc"])
	}
	if gc != "Serial" && gc != "" {
		p := parallelGCThreads(n)
		e.xx("ParallelGCThreads", itoa(p), RegCPU, fmt.Sprintf("GC worker threads for %d CPUs, not the host's", n))
		if gc == "G1" {
			e.xx("ConcGCThreads", itoa(max(1, (p+2)/4)), RegCPU, "a quarter of the GC workers run beside the app")
		}
	}
	userRatios := e.u.has("MinHeapFreeRatio") || e.u.has("MaxHeapFreeRatio")
	if userRatios {
		for _, k := range []string{"MinHeapFreeRatio", "MaxHeapFreeRatio"} {
			if e.u.has(k) {
				e.p.Kept = appendOnce(e.p.Kept, e.u.keys[k])
			}
		}
	}
	switch {
	case goal == Throughput || gc == "G1" || userRatios || gc == "":
	case goal == Footprint:
		e.xx("MinHeapFreeRatio", "10", RegHeap, "footprint: grow the heap only when less than 10% is free after GC (more GCs, less RSS)")
		e.xx("MaxHeapFreeRatio", "20", RegHeap, "footprint: shrink the heap when more than 20% is free, keeping RSS near the live set")
	default:
		e.xx("MinHeapFreeRatio", "20", RegHeap, "grow the heap conservatively: only when less than 20% is free after GC")
		e.xx("MaxHeapFreeRatio", "40", RegHeap, "shrink the heap when more than 40% is free, keeping RSS near the live set")
	}
	if gc == "Parallel" && goal == Footprint {
		e.xx("GCTimeRatio", "4", RegHeap, "footprint: accept up to 20% GC time so the heap stays small (seed 001 paropt)")
		e.xx("AdaptiveSizePolicyWeight", "90", RegHeap, "size the heap on recent GCs, so it shrinks quickly after a peak")
	}
}

func serialWhy(n int) string {
	if n < 2 {
		return "one CPU: a single-threaded collector has the least overhead"
	}
	return "small heap: a single-threaded collector has the least overhead"
}

func (e *emitter) jit(c1, lean bool, compilers, n int, limit int64) {
	if c1 {
		why := "C1 only: C2's code cache and compiler arenas cost more than they give back at ≤ 300 MiB (seed 000), and the profile shows few threads (≤ 100) whose deeper C1 stacks could cost more"
		if limit > smallLimit {
			why = "footprint: C1 only, so no C2 code cache or compiler arenas"
		}
		if !e.u.has("TieredCompilation") {
			e.xx("TieredStopAtLevel", "1", RegCompiler, why)
		}
	}
	if lean {
		e.xx("FreqInlineSize", itoa(leanInline), RegCompiler, fmt.Sprintf("C2 inlines hot callees up to %d bytecodes, not 325: its largest compiles, and their arenas, stay small at ≤ 300 MiB while C2 still compiles the hot code (small frames for deep stacks)", leanInline))
	}
	e.xx("CICompilerCount", itoa(compilers), RegCPU, fmt.Sprintf("JIT threads for %d CPUs (the JVM counts the host's in some setups)", n))
}

func (e *emitter) cpu(in Input, n int) {
	lim := in.Limits
	var why string
	switch {
	case lim.CPUQuotaInherited:
		why = "the CPU quota is set on a parent cgroup, which the JVM does not read"
	case in.JDK.Version < 10 && float64(n) < float64(max(lim.HostCPUs, 1)):
		why = "JDK 8 may count the host's CPUs"
	}
	if why != "" {
		e.xx("ActiveProcessorCount", itoa(n), RegCPU, why)
	}
	fj := max(1, n-1)
	e.add("-Djava.util.concurrent.ForkJoinPool.common.parallelism",
		"-Djava.util.concurrent.ForkJoinPool.common.parallelism="+itoa(fj), itoa(fj), RegCPU,
		fmt.Sprintf("common pool threads for %d CPUs (parallel streams, CompletableFuture)", n))
}

func (e *emitter) general(goal string) {
	if !e.u.has("CrashOnOutOfMemoryError") {
		e.on("ExitOnOutOfMemoryError", RegGeneral, "exit on OutOfMemoryError so the orchestrator restarts a clean JVM")
	}
	switch {
	case goal == Throughput || !e.j.Accepts("TrimNativeHeapInterval"):
	case goal == Footprint:
		e.xx("TrimNativeHeapInterval", "1000", RegNative, "footprint: return freed malloc memory to the OS every second")
	default:
		e.xx("TrimNativeHeapInterval", "5000", RegNative, "return freed malloc memory to the OS every 5 s")
	}
	if goal == Footprint && e.j.Accepts("UseCompactObjectHeaders") {
		e.on("UseCompactObjectHeaders", RegHeap, "8-byte object headers: 10-20% less heap for the same objects")
	}
	e.p.Env["MALLOC_ARENA_MAX"] = "2"
	e.p.Reasons = append(e.p.Reasons, Reason{Option: "MALLOC_ARENA_MAX=2", Name: "MALLOC_ARENA_MAX", Value: "2", Region: RegNative,
		Why: "environment: at most 2 glibc malloc arenas instead of 8 per CPU, each up to 64 MiB"})
}

func metaCapWhy(s *sizing) string {
	return "caps metaspace + class space at " + size.Format(s.meta) + ": " + s.why[RegMetaspace] + "; beyond it the JVM stops with OutOfMemoryError: Metaspace, not a kernel kill"
}

func directCapWhy(s *sizing) string { return s.why[RegDirect] }
