package plan

import (
	"fmt"
	"os"
	"strings"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Margins over a profile's peaks. Each is the spread of that peak over
// three runs of filecache under the same options (1 CPU, 100 req/s, JDK
// 17; docs/launcher.md, "With a profile: the margins"), rounded up, plus
// what the profile cannot see.
const (
	// Metaspace used 32.1-32.2 MiB (0.3%) under C1, 36.8-36.9 under the
	// defaults; committed/used is 1.02. 1 MiB is for classes loaded after
	// the measured load (a cap too small is a clean Metaspace OOM).
	metaMarginPct, metaMarginAdd = 3, mib
	// Code cache used 9.7-10.1 MiB (4%); a full cache stops the JIT, it
	// kills nothing.
	codeMarginPct, codeMarginAdd = 5, mib
	// Uncapped native 25.8-27.0 MiB (4.7%) under the same options, threads
	// 31-34 among them.
	nativeMarginPct = 5
	// Direct buffers peaked at 0.10-0.24 MiB in NMT's 2 s readings, but
	// NIO's temporary buffers come and go between them: with 0.5 MiB over
	// the peak, filecache stopped with "OutOfMemoryError: Direct buffer
	// memory" under load (a clean failure, but not the app's need).
	directMarginAdd = 2 * mib
	// grain rounds what a profile sizes: the JVM takes caps in KiB, and
	// the uncapped regions are estimates, not options, so whole MiB would
	// only add up to a few MiB of nothing.
	grain = 256 * size.KiB
)

// nmtHeaderShare is what NMT itself adds to a measured native beyond its
// own category. A profile is measured under NMT summary, which puts a
// 16-byte header on every malloc; the answer's JVM runs without NMT.
// filecache, serial-c1 at 112Mi (1 CPU, 100 req/s, JDK 17, end of load,
// bench/nonheap.sh): 98.7 MiB anonymous with NMT, 92.9 without. NMT's own
// category (3.6 MiB) is already out of the profile's native; the other 2.2
// MiB are the headers, 26% of Symbol's 8.4 MiB (symbols are most of the
// ~230,000 mallocs, about 40 bytes each). 20% of Symbol's peak comes out
// of the measured native: a little less than was measured.
const nmtHeaderShare = 0.20

// nmtHeaders is the share of the profile's native that NMT's malloc
// headers made, when the profile ran with NMT and the plan's JVM does not.
func nmtHeaders(pr *Profile, user []string) int64 {
	if !nmtOn(pr.Options) || nmtOn(user) {
		return 0
	}
	return int64(float64(pr.NMTPeakBytes["Symbol"]) * nmtHeaderShare)
}

func nmtOn(opts []string) bool {
	for _, o := range opts {
		if v, ok := strings.CutPrefix(o, "-XX:NativeMemoryTracking="); ok && v != "off" {
			return true
		}
	}
	return false
}

// archiveCharged is the part of the profile's mapped archive the plan
// reserves: the written (anonymous) pages, and of the clean ones only what
// the headroom does not hold. Clean pages are page cache of the archive's
// file: the kernel reclaims them before it kills (and reads them again),
// which is what the headroom is for. filecache's JDK archive: 11.7 MiB
// resident, 9.8 written, so 1.9 MiB of clean pages that a 2.2 MiB
// headroom holds; the cgroup charged 0.3-1.1 MiB of page cache in all
// (memory.stat "cache", end of load). A profile without the split (0
// written) counts the archive whole.
func archiveCharged(pr *Profile, headroom int64) int64 {
	if pr.CDSArchiveAnonBytes <= 0 {
		return pr.CDSArchiveBytes
	}
	clean := pr.CDSArchiveBytes - pr.CDSArchiveAnonBytes
	return pr.CDSArchiveAnonBytes + max(0, clean-headroom)
}

// Without a measured native the headroom is 5% of the limit; with one it
// only holds what the kernel may reclaim: cgroup usage − anonymous RSS
// peaked at 1.8-4.4 MiB over six filecache runs, of which the kernel
// region counts 1.7 (page tables, kernel stacks) and the rest is page cache
// of the app's log.
func measuredHeadroom(limit int64) int64 { return clamp(frac(limit, 0.02), 2*mib, 1024*mib) }

// profileJIT is the compiler the profile was measured under: C1 only or
// tiered, and the compiler threads, read from its options as the JVM
// reads them (the JDK's defaults when they say nothing).
func profileJIT(pr *Profile) (c1 bool, compilers int) {
	u, err := parseUser(pr.Options)
	if err != nil {
		return false, 0
	}
	n := max(1, int(pr.CPUs+0.999))
	if v, ok := u.number("ActiveProcessorCount"); ok && v >= 1 {
		n = int(v)
	}
	c1, tieredOff := jitChoice(Throughput, u, 0, nil)
	compilers = jvmCompilerCount(n)
	if tieredOff {
		compilers = max(jvmCompilerCount(n)/2, 1)
	}
	if v, ok := u.number("CICompilerCount"); ok && v >= 1 {
		compilers = int(v)
	}
	return c1, compilers
}

// burstModel is the compiler's arenas at their burst, with what glibc
// keeps of them, when the profile measured another compiler: C1 with one
// thread peaked at 8.2-9.8 MiB (filecache), 8.3 (sort), 10.0 (inventory);
// tiered with two at 25.8-33.9 MiB (filecache, the JDK's defaults).
// scaledBurst is the measured burst of the other compiler scaled to this
// one, for apps bigger than the model's: C1's burst was 0.24-0.32 of
// tiered's on filecache (8.2-9.8 of 25.8-33.9 MiB) and catalog (12.0 of
// 49.5 MiB), so C1 gets 0.35 of a tiered measurement and tiered 3 times a
// C1 one.
func scaledBurst(c1, measuredC1 bool, burst int64) int64 {
	switch {
	case c1 && !measuredC1:
		return burst * 35 / 100
	case !c1 && measuredC1:
		return burst * 3
	}
	return burst
}

// capped are the NMT categories sized elsewhere in the plan (heap,
// metaspace, code cache, the CDS archive, the compiler), not a category,
// or NMT's own bookkeeping, which the answer's JVM (without NMT) has not.
var capped = map[string]bool{"Java Heap": true, "Class": true, "Metaspace": true, "Code": true,
	"Shared class space": true, "Compiler": true, "Arena Chunk": true, "Total": true,
	"Native Memory Tracking": true,
	// NMT's Other is direct buffers: the profile's directMemoryBytes, sized
	// as direct memory. Counted here too, directbuf's 72 MiB went into the
	// native as well, and its plan needed 152 MiB against the defaults' 144.
	"Other": true}

// otherNativeNMT is the sum of the peaks of every NMT category no option
// caps (Symbol, Thread, GC, Internal, ...).
func otherNativeNMT(peaks map[string]int64) int64 {
	var sum int64
	for cat, v := range peaks {
		if !capped[cat] {
			sum += v
		}
	}
	return sum
}

func burstModel(c1 bool, compilers int) int64 {
	if c1 {
		return 4*mib + 6*mib*int64(compilers)
	}
	return 8*mib + 14*mib*int64(compilers)
}

// sizeNative sizes what no option caps from the profile's peak uncapped
// native. Measured under the plan's compiler, it is used whole (it holds
// GC, compiler, stacks, symbols and malloc's slack as the plan will run
// them). Measured under another compiler, the compiler's share (NMT's
// Compiler and Arena Chunk peaks) is taken out and the plan's compiler is
// counted from the model instead: the rest (symbols, stacks, GC,
// internals) was 16.4-17.6 MiB on filecache whichever compiler ran.
//
// NMT's malloc headers (nmtHeaders) come out first: the profile's JVM had
// them, the plan's has not.
func (s *sizing) sizeNative(pr *Profile, user []string, c1 bool, compilers int) {
	s.measuredNative = true
	pc1, pn := profileJIT(pr)
	headers := nmtHeaders(pr, user)
	base := max(0, pr.PeakUncappedNativeBytes-headers)
	burst := pr.NMTPeakBytes["Compiler"] + pr.NMTPeakBytes["Arena Chunk"]
	what := "GC, compiler, stacks, symbols, malloc"
	if (pc1 != c1 || pn != compilers) && burst > 0 {
		// The native's peak and the compiler's are not at the same moment,
		// so the difference can fall below what the other categories held
		// at their own peaks: on catalog (18k classes) it left 16.4 MiB
		// while Symbol alone peaked at 21.5 and the plan was OOM-killed at
		// 264Mi. The NMT sum of those categories is the floor.
		base = max(0, base-burst, otherNativeNMT(pr.NMTPeakBytes))
		s.compilerApart = true
		s.compiler = max(burstModel(c1, compilers), scaledBurst(c1, pc1, burst))
		s.set(RegCompiler, "jvmfit", fmt.Sprintf("the profile measured %s, this plan runs %s: the model's burst for it (the measured %s is taken out of the native)",
			jitName(pc1, pn), jitName(c1, compilers), size.Format(burst)))
		what = "GC, stacks, symbols, malloc; compiler apart"
	}
	s.native = roundUp(base*(100+nativeMarginPct)/100+pr.MappedBufferBytes, grain)
	less := ""
	if headers > 0 {
		less = fmt.Sprintf(", less %s of NMT's malloc headers (the profile ran with NMT, this JVM without)", size.Format(headers))
	}
	s.set(RegNative, "profile", fmt.Sprintf("measured peak uncapped native %s (%s%s) × 1.05", size.Format(base), what, less))
	s.kernel = roundUp(kernelBase+kernelThread*int64(s.threads), grain)
}

func jitName(c1 bool, n int) string {
	if c1 {
		return fmt.Sprintf("C1 only with %d compiler threads", n)
	}
	return fmt.Sprintf("tiered with %d compiler threads", n)
}

// userArchiveBytes is the size of a CDS archive or AOT cache the user's
// options map that the profile did not measure (a dynamic archive maps on
// top of the JDK's): resident once the app has loaded its classes.
func userArchiveBytes(opts []string, pr *Profile) int64 {
	return archiveFileBytes(opts, pr, "-XX:SharedArchiveFile=", "-XX:AOTCache=")
}

// archiveTakeover is the share of a new CDS archive's file the plan takes
// out of the metaspace the profile measured without it: the archived
// classes' metadata is in the archive, not in metaspace. Dynamic AppCDS of
// serial-c1 (JDK 17, 1 CPU; docs/tune.md, catalog): filecache's 32.1 MiB
// archive took 24.6 MiB out of metaspace (0.77 of the file), catalog's
// 84.4 MiB one 63 MiB (0.75), and a sixth of the file out of the symbols,
// which the plan leaves in the native. Half, because the profile is the
// JDK's defaults' (tiered, MethodData) and a cap too tight stops the
// candidate's first trial before its own profile is measured; that
// profile then sizes metaspace. Not for an AOT cache (JDK 25 holds more
// than metadata: filecache's took 28.5 MiB of metaspace with 54.4
// resident).
const archiveTakeover = 0.5

// newArchiveBytes is the size of the CDS archives the user's options map
// and the profile did not measure (an AOT cache apart).
func newArchiveBytes(opts []string, pr *Profile) int64 {
	return archiveFileBytes(opts, pr, "-XX:SharedArchiveFile=")
}

func archiveFileBytes(opts []string, pr *Profile, prefixes ...string) int64 {
	var n int64
	for _, o := range opts {
		for _, pre := range prefixes {
			f, ok := strings.CutPrefix(o, pre)
			if !ok || hasOption(pr.Options, o) {
				continue
			}
			for _, part := range strings.Split(f, ":") { // a static:dynamic pair
				if st, err := os.Stat(part); err == nil {
					n += st.Size()
				}
			}
		}
	}
	return n
}

// profileOnlyArchive is the part of the profile's measured archive that
// came from a CDS archive or AOT cache its options mapped and the plan's
// options do not: the JDK's default archive maps instead, and the classes
// the archive held load into metaspace. filecache on JDK 25 with an AOT
// cache measured 54.4 MiB of archive and 4.0 MiB of metaspace, without it
// 13.6 and 32.5: planned from the first, a run without the cache stopped
// in metaspace.
func profileOnlyArchive(pr *Profile, user []string, defaultArchive int64) int64 {
	for _, o := range pr.Options {
		if (strings.HasPrefix(o, "-XX:SharedArchiveFile=") || strings.HasPrefix(o, "-XX:AOTCache=")) && !hasOption(user, o) {
			return max(0, pr.CDSArchiveBytes-defaultArchive)
		}
	}
	return 0
}

// gcFor is the collector's structures; with a measured native, less
// what NMT's GC category already put in it.
func (s *sizing) gcFor(gc string, heap int64, pr *Profile) int64 {
	if !s.measuredNative {
		return gcOverheadFor(gc, heap)
	}
	model := mib/2 + int64(float64(heap)*gcPct(gc))
	return roundUp(max(0, model-pr.NMTPeakBytes["GC"]), grain)
}

// MeasuredNonHeap is the non-heap the profile's trial held at its peak:
// metaspace and class space used, code cache used, direct and mapped
// buffers, the mapped CDS archive or AOT cache, and the uncapped native
// (NMT's other categories with the allocator's slack and the stacks
// touched). Kernel memory is not in a profile: the plan's kernel region
// is the one estimate on top. 0 without a measured native.
func MeasuredNonHeap(pr *Profile) int64 {
	if pr == nil || pr.PeakUncappedNativeBytes <= 0 {
		return 0
	}
	return pr.MetaspaceUsedBytes + pr.CodeCacheUsedBytes + pr.DirectMemoryBytes + pr.MappedBufferBytes +
		pr.CDSArchiveBytes + pr.PeakUncappedNativeBytes
}

// nonHeapAgainstMeasured says, for --explain, how far the planned
// non-heap is from the measured one and which margin makes the gap: the
// margins are what one trial cannot see (the spread between runs, classes
// and code loaded later, NIO's bursts between readings, the kernel); what
// the plan holds below a measured peak is what the answer's JVM will not
// have (NMT's malloc headers) or the kernel reclaims (the archive's clean
// pages, left to the headroom).
func (p *Plan) nonHeapAgainstMeasured(pr *Profile) string {
	m := MeasuredNonHeap(pr)
	if m == 0 {
		return ""
	}
	planned := p.Total() - p.HeapBytes()
	meta := p.Region(RegMetaspace).Bytes + p.Region(RegClass).Bytes
	native := p.Region(RegNative).Bytes + p.Region(RegCompiler).Bytes + p.Region(RegGC).Bytes - pr.PeakUncappedNativeBytes - pr.MappedBufferBytes
	return fmt.Sprintf("; non-heap planned %s against %s measured in the profile's trial: metaspace %s, code cache %s, direct %s, native %s, CDS archive %s against their peaks, kernel %s (not measured)",
		size.Format(planned), size.Format(m),
		signed(meta-pr.MetaspaceUsedBytes), signed(p.Region(RegCode).Bytes-pr.CodeCacheUsedBytes),
		signed(p.Region(RegDirect).Bytes-pr.DirectMemoryBytes), signed(native),
		signed(p.Region(RegCDS).Bytes-pr.CDSArchiveBytes), size.Format(p.Region(RegKernel).Bytes))
}

func signed(b int64) string {
	if b < 0 {
		return "-" + size.Format(-b)
	}
	return "+" + size.Format(b)
}
