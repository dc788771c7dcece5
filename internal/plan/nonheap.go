package plan

import (
	"fmt"
	"math"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Figures measured here on filecache, sort, inventory and a plain-JDK
// service (JDK 17, 1 CPU, 100 req/s; docs/launcher.md has the table).
const (
	stackTouched  = 128 * size.KiB // resident stack per thread (filecache: 2.8 MiB / 30 threads)
	kernelBase    = 1 * mib        // page tables and the like (filecache: 1.2 MiB)
	kernelThread  = 16 * size.KiB  // kernel stack per thread
	allocSlack    = 4 * mib        // glibc slack with MALLOC_ARENA_MAX=2: anonymous memory outside NMT and the CDS archive
	nativeBase    = 2 * mib        // internals, modules, synchronizers
	nativePerMeta = 0.25           // symbols and class loader data per byte of metaspace (filecache: 8.9 / 34)
	metaFloor     = 8 * mib        // a plain-JDK service uses 2.6 MiB
	directFloor   = 2 * mib        // Tomcat services use 0.1 MiB
	minHeapNoProf = 8 * mib        // a plain-JDK service's live set is 2.6 MiB
)

// sizeFixed fills the regions that do not depend on the heap: CDS archive,
// kernel, allocator, compiler, code cache and thread stacks.
func (s *sizing) sizeFixed(in Input, u userSet, c1 bool, compilers int) {
	pr := profileOf(in)
	s.headroom = headroomFor(s.limit)
	s.set(RegHeadroom, "jvmfit", "5% of the limit (6 MiB to 1 GiB) left unused for the page cache the app writes")
	if pr.PeakUncappedNativeBytes > 0 {
		s.headroom = measuredHeadroom(s.limit)
		s.set(RegHeadroom, "jvmfit", "native measured: 2% of the limit (at least 2 MiB) for the page cache the kernel may reclaim")
	}

	switch {
	case hasOption(in.UserOptions, "-Xshare:off"):
		s.shareOff = true
		s.set(RegCDS, "user", "none: your -Xshare:off")
	case pr.CDSArchiveBytes > 0 && profileOnlyArchive(pr, in.UserOptions, in.cdsBytes) > 0:
		s.archiveGone = profileOnlyArchive(pr, in.UserOptions, in.cdsBytes)
		s.cds = roundUp(in.cdsBytes, mib)
		s.set(RegCDS, "jvmfit", "the JDK's default archive: the profile's archive or AOT cache is not in your options (what it held goes to metaspace)")
	case pr.CDSArchiveBytes > 0:
		// Its written (anonymous) pages are left out of the profile's
		// uncapped native, so they are counted here.
		s.cds = archiveCharged(pr, s.headroom)
		s.set(RegCDS, "profile", "measured resident size of the mapped archive, its written pages included")
		if s.cds < pr.CDSArchiveBytes {
			s.set(RegCDS, "profile", fmt.Sprintf("measured %s written of the mapped archive's %s resident: its clean pages are page cache the kernel reclaims, held by the headroom",
				size.Format(pr.CDSArchiveAnonBytes), size.Format(pr.CDSArchiveBytes)))
		}
	default:
		s.cds = roundUp(in.cdsBytes, mib)
		s.set(RegCDS, "jvmfit", "the JDK's default archive (lib/server/classes.jsa), mapped at start, in no NMT cap")
	}
	if a := userArchiveBytes(in.UserOptions, pr); a > 0 && !hasOption(in.UserOptions, "-Xshare:off") {
		s.archiveNew = newArchiveBytes(in.UserOptions, pr)
		s.cds += a
		s.set(RegCDS, s.src[RegCDS], s.why[RegCDS]+"; plus "+size.Format(a)+" of the archive your options map")
	}
	s.alloc = allocSlack
	s.set(RegAlloc, "jvmfit", "glibc's slack with MALLOC_ARENA_MAX=2: anonymous memory outside NMT's categories and the CDS archive (filecache: 4.3 MiB)")
	s.sizeCompiler(c1, compilers)
	s.sizeCode(u, pr, c1, in.Goal)
	s.sizeStacks(u, pr)
	s.kernel = roundUp(kernelBase+kernelThread*int64(s.threads), mib)
	s.set(RegKernel, "jvmfit", fmt.Sprintf("page tables and %d kernel stacks, charged to the container", s.threads))
	if pr.PeakUncappedNativeBytes > 0 {
		s.sizeNative(pr, in.UserOptions, c1, compilers)
	}
}

func profileOf(in Input) *Profile {
	if in.Profile == nil {
		return &Profile{}
	}
	return in.Profile
}

// sizeCompiler is the JIT's arenas at their peak: the burst when a large
// method compiles (filecache: 8.3 MiB with one C1 thread at ~10 s; 18.8
// MiB with tiered C1+C2 at two threads).
func (s *sizing) sizeCompiler(c1 bool, compilers int) {
	if c1 {
		s.compiler = 4*mib + 4*mib*int64(compilers)
		s.set(RegCompiler, "jvmfit", fmt.Sprintf("C1 arenas at their burst: 4 MiB + 4 MiB × %d compiler threads", compilers))
		return
	}
	s.compiler = 8*mib + 6*mib*int64(compilers)
	s.set(RegCompiler, "jvmfit", fmt.Sprintf("C1+C2 arenas at their burst: 8 MiB + 6 MiB × %d compiler threads", compilers))
}

// sizeCode sizes the code cache cap, counted whole: it is committed as
// code is compiled, and a full cache stops the JIT but kills nothing.
func (s *sizing) sizeCode(u userSet, pr *Profile, c1 bool, goal string) {
	L := s.limit
	userCode, _ := u.size("ReservedCodeCacheSize")
	switch {
	case userCode > 0:
		s.code = userCode
		s.set(RegCode, "user", "your "+u.keys["ReservedCodeCacheSize"])
	case pr.CodeCacheUsedBytes > 0:
		floor := int64(24 * mib)
		if c1 {
			floor = 8 * mib
		}
		s.code = roundUp(pr.CodeCacheUsedBytes*(100+codeMarginPct)/100+codeMarginAdd, grain)
		s.set(RegCode, "profile", fmt.Sprintf("measured %s used × 1.05 + 1 MiB (a full code cache stops the JIT, it kills nothing)", size.Format(pr.CodeCacheUsedBytes)))
		if s.code < floor {
			// Not seen by the measurement: what the JIT compiles after
			// the trial (C2 keeps compiling for minutes on a large app).
			s.set(RegCode, "jvmfit", s.why[RegCode]+fmt.Sprintf(", raised to the %s floor of %s: code compiled after the trial", size.Format(floor), map[bool]string{true: "C1 only", false: "C1+C2"}[c1]))
			s.code = floor
		}
	case c1 && goal == Footprint:
		s.code = clamp(4*mib+frac(L, 0.04), 12*mib, 32*mib)
		s.set(RegCode, "jvmfit", "footprint, C1 only: 4 MiB + 4% of the limit (12 to 32 MiB); filecache, sort and inventory use 11-13 MiB")
	case c1:
		s.code = clamp(8*mib+frac(L, 0.06), 16*mib, 48*mib)
		s.set(RegCode, "jvmfit", "C1 only: 8 MiB + 6% of the limit (16 to 48 MiB, the JVM's C1 default); filecache, sort and inventory use 11-13 MiB")
	default:
		// Tiered splits the cache in three segments: 48 MiB stalled the
		// JIT on catalog (p99 9 s against 1.1 s with 240 MiB at 384 MiB).
		s.code = clamp(16*mib+frac(L, 0.12), 64*mib, 240*mib)
		s.set(RegCode, "jvmfit", "C1+C2: 16 MiB + 12% of the limit (64 to 240 MiB) instead of a flat 240 MiB; filecache, sort and inventory use 18-23 MiB, a 48 MiB cap stalled the JIT on a large app")
	}
	s.codeCap = s.code
}

// vmThreads is the JVM's threads that are not Java threads (VM thread,
// GC workers, periodic task): /proc's count less hsperf's on JDK 17's
// greet-spring and greet-quarkus was 8 with Serial at 1 CPU and 15 with G1
// at 2; 12 with the 25% margin covers both.
const vmThreads = 12

// sizeStacks counts threads at the stack they touch, not their -Xss: a
// stack is reserved whole but only its used pages are resident.
func (s *sizing) sizeStacks(u userSet, pr *Profile) {
	userXss, _ := u.size("ThreadStackSize")
	switch {
	case userXss > 0:
		s.xss = userXss
	case s.limit < 1024*mib:
		s.xss = 512 * size.KiB
	default:
		s.xss = 1024 * size.KiB
	}
	s.stackRes = min(s.xss, stackTouched)
	per := fmt.Sprintf("%s touched of each %s stack", size.Format(s.stackRes), size.Format(s.xss))
	switch {
	case pr.PeakThreads > 0:
		s.threads = int(pr.PeakThreads*5/4 + 4)
		s.set(RegStacks, "profile", fmt.Sprintf("%d threads (measured peak %d + 25%% + 4) × %s", s.threads, pr.PeakThreads, per))
	case pr.PeakJavaThreads > 0:
		// A metrics endpoint counts Java threads only; the VM's own (GC
		// workers, VM thread, compiler threads) come on top.
		s.threads = int((pr.PeakJavaThreads+vmThreads)*5/4 + 4)
		s.set(RegStacks, "profile", fmt.Sprintf("%d threads (measured Java peak %d + %d VM threads, + 25%% + 4) × %s", s.threads, pr.PeakJavaThreads, vmThreads, per))
	default:
		s.threads = int(clamp(int64(math.Round(64+16*math.Log2(float64(s.limit)/float64(128*mib)))), 64, 300))
		s.set(RegStacks, "jvmfit", fmt.Sprintf("%d threads (64 at 128 MiB, +16 per doubling; Tomcat services run 30-105 under load) × %s", s.threads, per))
	}
	if userXss > 0 {
		s.src[RegStacks] = "user"
	}
}

func hasOption(opts []string, o string) bool {
	for _, x := range opts {
		if x == o {
			return true
		}
	}
	return false
}
