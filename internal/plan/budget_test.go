package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// catalogNonHeap is catalog's measured non-heap under the JDK's defaults
// at 1 GiB (testdata/catalog-default-profile.json): metaspace and class
// space as NMT committed them, code cache, the CDS archive and the
// uncapped native; the largest of the panel (docs/launcher.md).
func catalogNonHeap(t *testing.T) (total, meta int64) {
	t.Helper()
	pr, err := LoadProfile("testdata/catalog-default-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	meta = pr.NMTPeakBytes["Metaspace"] + pr.NMTPeakBytes["Class"]
	total = meta + pr.NMTPeakBytes["Code"] + pr.CDSArchiveBytes + pr.PeakUncappedNativeBytes
	return total, meta
}

// Large containers without a profile (issue 21): at 1, 2, 4 and 8 GiB the
// heap gets what the non-heap budget leaves, the budget holds the panel's
// largest non-heap (catalog's) with its caps above what catalog uses and
// within a few times it, and at 4 GiB the heap is at least 60% of the
// limit, where it was the JDK's 25%.
func TestLargeContainerTable(t *testing.T) {
	nonHeap, catMeta := catalogNonHeap(t)
	if nonHeap < 200*mib || nonHeap > 260*mib {
		t.Fatalf("catalog's measured non-heap %s: the profile changed", size.Format(nonHeap))
	}
	for _, gib := range []int64{1, 2, 4, 8} {
		for _, cpus := range []float64{1, 2, 4} {
			for _, goal := range []string{Footprint, Balanced, Throughput} {
				mem := gib * size.GiB
				at := fmt.Sprintf("%dGi %g CPUs %s", gib, cpus, goal)
				p := mustPlan(t, Input{Limits: limits(mem, cpus), JDK: jdk17, Goal: goal})
				heap := p.HeapBytes()
				if def := jdkDefaultHeap(mem, int(cpus)); heap <= def {
					t.Errorf("%s: heap %s is not above the JDK's %s", at, size.Format(heap), size.Format(def))
				}
				// Footprint keeps 30% of what the budget leaves unassigned.
				if gib >= 4 && heap*100 < mem*55 {
					t.Errorf("%s: heap %s is under 55%% of the limit at 4 GiB and above", at, size.Format(heap))
				}
				if goal != Footprint && heap*100 < mem*60 {
					t.Errorf("%s: heap %s is under 60%% (run-java.sh gives 50%%, UBI 80%%)", at, size.Format(heap))
				}
				// What the heap and the headroom leave holds catalog's
				// whole non-heap (no kernel kill for any panel app).
				if left := mem - heap - p.Region(RegGC).Bytes - p.Region(RegHeadroom).Bytes; left < nonHeap {
					t.Errorf("%s: %s left beside the heap, catalog's non-heap is %s", at, size.Format(left), size.Format(nonHeap))
				}
				meta := optionBytes(t, p, "MaxMetaspaceSize")
				if meta < catMeta*6/5 || meta > 3*catMeta {
					t.Errorf("%s: metaspace cap %s, catalog commits %s: want 1.2× to 3×", at, size.Format(meta), size.Format(catMeta))
				}
				// directbuf, the panel's direct-memory service, peaked at 68
				// MiB of direct buffers (docs/launcher.md).
				if d := optionBytes(t, p, "MaxDirectMemorySize"); d < 96*mib || d > 256*mib {
					t.Errorf("%s: direct memory cap %s, want 1.4× to 4× directbuf's 68 MiB", at, size.Format(d))
				}
				checkFits(t, p, mem)
			}
		}
	}
}

// The goals differ in large containers: footprint a smaller heap, C1 and
// tight free ratios; throughput a fixed heap (Xms = Xmx) and C2; balanced
// between. At 1, 2, 4 and 8 GiB, 1 and 2 CPUs.
func TestGoalsDifferInLargeContainers(t *testing.T) {
	for _, gib := range []int64{1, 2, 4, 8} {
		for _, cpus := range []float64{1, 2} {
			mem := gib * size.GiB
			plans := map[string]*Plan{}
			for _, g := range []string{Footprint, Balanced, Throughput} {
				plans[g] = mustPlan(t, Input{Limits: limits(mem, cpus), JDK: jdk17, Goal: g})
			}
			at := fmt.Sprintf("%dGi %g CPUs", gib, cpus)
			f, b, th := plans[Footprint], plans[Balanced], plans[Throughput]
			if f.HeapBytes() >= b.HeapBytes() {
				t.Errorf("%s: footprint heap %s not below balanced's %s", at, size.Format(f.HeapBytes()), size.Format(b.HeapBytes()))
			}
			if !f.C1Only || b.C1Only || th.C1Only {
				t.Errorf("%s: C1 only: footprint %v balanced %v throughput %v", at, f.C1Only, b.C1Only, th.C1Only)
			}
			if !has(th, "-Xms"+size.JVM(th.HeapBytes())) || has(b, "-Xms") || has(f, "-Xms") {
				t.Errorf("%s: only throughput fixes the heap: %v / %v / %v", at, th.Options, b.Options, f.Options)
			}
			if !has(f, "-XX:MaxHeapFreeRatio=20") || !has(b, "-XX:MaxHeapFreeRatio=40") && b.GC != "G1" {
				t.Errorf("%s: free ratios: footprint %v balanced %v", at, f.Options, b.Options)
			}
			if optionBytes(t, f, "MaxMetaspaceSize") > optionBytes(t, b, "MaxMetaspaceSize") ||
				optionBytes(t, f, "ReservedCodeCacheSize") >= optionBytes(t, b, "ReservedCodeCacheSize") {
				t.Errorf("%s: footprint's caps are not the smaller: %v / %v", at, f.Options, b.Options)
			}
			if !strings.Contains(f.Region(RegHeap).Why, "footprint") {
				t.Errorf("%s: footprint's heap reason %q", at, f.Region(RegHeap).Why)
			}
		}
	}
}

// Below the budget's regime the plan takes the JDK's heap and caps no
// metaspace, whatever the goal: the heap-bound service (24 MiB
// live set, 1 CPU) passed at 64Mi under the defaults with a 32 MiB heap;
// the plan gave it 26 MiB at 112Mi. Direct memory gets a cap above the
// JDK's own (the heap less a survivor space), by at most a 4 MiB chunk of
// Netty's pool over the heap, and, while the CPUs do not bound Netty's
// arena count (cap / 24 MiB, at most 2 per CPU), not into its next arena:
// directbuf lost to the defaults on the chunk the JDK's own cap withholds.
func TestNoProfileSmallLimitsKeepTheJDKsRegions(t *testing.T) {
	for _, m := range []int64{64, 112, 128, 136, 144, 152, 200, 256, 384, 416} {
		for _, goal := range []string{Footprint, Balanced, Throughput} {
			for _, cpus := range []int{1, 2, 4} {
				p := mustPlan(t, Input{Limits: limits(m*mib, float64(cpus)), JDK: jdk17, Goal: goal})
				heap := jdkDefaultHeap(m*mib, cpus)
				if p.HeapBytes() != heap {
					t.Errorf("%dMi %s: heap %s, the JDK's is %s", m, goal, size.Format(p.HeapBytes()), size.Format(heap))
				}
				if has(p, "-XX:MaxMetaspaceSize=") {
					t.Errorf("%dMi %s: a metaspace cap the JDK does not have: %v", m, goal, p.Options)
				}
				if !has(p, "-XX:MaxDirectMemorySize=") {
					t.Fatalf("%dMi %s: no direct memory cap, so the JDK's own, the heap less a survivor space: %v", m, goal, p.Options)
				}
				d, own := optionBytes(t, p, "MaxDirectMemorySize"), jdkOwnDirect(heap)
				arenas := func(c int64) int64 { return min(int64(2*cpus), c/(24*mib)) }
				if d < own || d > heap+4*mib || arenas(d) != arenas(own) {
					t.Errorf("%dMi %d CPUs %s: MaxDirectMemorySize %s: want at least the JDK's own %s, at most the heap %s and a chunk, and Netty's %d arenas (got %d)",
						m, cpus, goal, size.Format(d), size.Format(own), size.Format(heap), arenas(own), arenas(d))
				}
			}
		}
	}
	// The JDK's own cap as Java reports it (Runtime.maxMemory(), Serial):
	// direct_jvm_test.go checks the model on real JVMs.
	if own := jdkOwnDirect(64 * mib); own != 64880640 {
		t.Errorf("the JDK's own cap for -Xmx64m: %d, Java says 64880640", own)
	}
	if own := jdkOwnDirect(68 * mib); own != 68943872 {
		t.Errorf("the JDK's own cap for -Xmx68m: %d, Java says 68943872", own)
	}
	for _, c := range []struct {
		mem, direct int64
		cpus        float64
	}{{128, 68, 2}, {136, 71, 2}, {144, 71, 2}, {152, 80, 2}, {136, 72, 1}, {144, 76, 1}, {256, 130, 2}} {
		p := mustPlan(t, Input{Limits: limits(c.mem*mib, c.cpus), JDK: jdk17})
		if d := optionBytes(t, p, "MaxDirectMemorySize"); d != c.direct*mib {
			t.Errorf("%dMi, %g CPUs: MaxDirectMemorySize %s, want %dm", c.mem, c.cpus, size.Format(d), c.direct)
		}
	}
	p := mustPlan(t, Input{Limits: limits(64*mib, 1), JDK: jdk17})
	if p.HeapBytes() != 32*mib || p.C1Only || has(p, "-XX:TieredStopAtLevel=1") || !has(p, "-XX:CICompilerCount=2") {
		t.Errorf("64Mi: want the JDK's 32 MiB heap with the JDK's tiered compilation and its two compiler threads: %v", p.Options)
	}
}
