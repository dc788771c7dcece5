//go:build linux

package profile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// FromPID samples the JVM pid, running on this host, every interval for
// the duration, without restarting it: its hsperf counters, /proc (status,
// smaps_rollup, smaps), its cgroup's files, and NMT through the attach
// socket when the JVM runs with -XX:NativeMemoryTracking. It forces a
// full GC (GC.run) before the last sample only when gc is set.
func FromPID(ctx context.Context, pid int, w Window, gc bool) (*plan.Profile, []string, error) {
	perf, err := checkJVM(pid)
	if err != nil {
		return nil, nil, err
	}
	t := probe.Target{Pid: pid, PerfData: perf, NMT: true, FullGCAtEnd: gc}
	memDir := cgroupMemDir(pid)
	if memDir != "" {
		t.CgroupDir = memDir
		t.CgroupStats = func() (probe.CgroupStats, error) { return groupStats(memDir) }
	}
	every := w.Interval
	if every <= 0 {
		every = time.Second
	}
	smp := probe.Start(ctx, t, every)
	select {
	case <-ctx.Done():
	case <-time.After(w.Duration):
	}
	series := smp.Stop()
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	var jvm bool
	for _, x := range series {
		jvm = jvm || x.HasJVM()
	}
	if !jvm {
		return nil, nil, badInput("pid %d: its counters could not be read during the window (%v): is it still running?", pid, smp.Errors()["hsperf"])
	}
	p, nmt := sampledProfile(series)
	p.Source, p.From, p.Window = "pid", strconv.Itoa(pid), w.Duration.String()
	p.Options = probe.JVMOptions("", pid)
	p.CPUs = cpusOf(pid)
	if memDir != "" {
		if l, err := cgroup.ReadInt(memDir, limitFile(memDir)); err == nil && l > 0 && l < 1<<60 {
			p.MemoryLimitBytes = l
		}
	}
	if snap, err := hsperf.ReadFile(perf); err == nil {
		p.JDKVersion = majorOf(snap.JVM().Version)
	}
	src := sampledSources(p)
	var notes []string
	live, measured := liveAfterOldGC(series)
	p.LiveHeapBytes = live
	switch {
	case measured:
		src["liveHeapBytes"] = plan.SourceHsperf
	case live > 0:
		src["liveHeapBytes"] = plan.SourceEstimated
		notes = append(notes, "liveHeapBytes estimated: no old or full collection in the window, so the old generation's lowest use stands in (an overestimate, not planned from); add --gc to force one, or sample longer")
	default:
		src["liveHeapBytes"] = plan.SourceUnmeasured
	}
	if p.CodeCacheUsedBytes == 0 {
		if out, err := probe.Jcmd(ctx, "", pid, "Compiler.codecache"); err == nil {
			p.CodeCacheUsedBytes, _ = probe.ParseCodeCache(out)
		}
		if p.CodeCacheUsedBytes > 0 {
			src["codeCacheUsedBytes"] = plan.SourceJcmd
		} else {
			src["codeCacheUsedBytes"] = plan.SourceUnmeasured
			notes = append(notes, "codeCacheUsedBytes unmeasured: jcmd Compiler.codecache failed (attach disabled?)")
		}
	}
	if !nmt {
		for _, f := range []string{"directMemoryBytes", "peakUncappedNativeBytes", "nmtPeakBytes"} {
			src[f] = plan.SourceUnmeasured
		}
		p.DirectMemoryBytes, p.PeakUncappedNativeBytes, p.NMTPeakBytes = 0, 0, nil
		notes = append(notes, "the JVM runs without NMT: directMemoryBytes and peakUncappedNativeBytes unmeasured (start it with -XX:NativeMemoryTracking=summary to measure them)")
	}
	p.Sources = src
	return p, notes, p.Validate()
}

// checkJVM says, in one line, why pid cannot be profiled: no such
// process, not a JVM, a JVM without perf data, or one this user may not
// read. It returns the JVM's perf-data file.
func checkJVM(pid int) (string, error) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	fi, err := os.Stat(dir)
	if err != nil {
		return "", badInput("pid %d: no such process", pid)
	}
	owner := -1
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		owner = int(st.Uid)
	}
	cmd, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
	argv0, _, _ := strings.Cut(string(cmd), "\x00")
	perf := hsperf.PathFor(pid)
	_, perr := hsperf.ReadFile(perf)
	switch {
	case perr == nil:
		return perf, nil
	case errors.Is(perr, fs.ErrPermission):
		return "", badInput("pid %d is a JVM of user %s, and jvmfit runs as %s, which may not read its counters (%s): run jvmfit as that user or as root", pid, userName(owner), userName(os.Geteuid()), perf)
	case filepath.Base(argv0) != "java" && !errors.Is(perr, hsperf.ErrNotReady):
		name, _ := os.ReadFile(filepath.Join(dir, "comm"))
		return "", badInput("pid %d (%s) is not a JVM: it has no perf data (%s); give the pid of a java process (jcmd -l lists them)", pid, strings.TrimSpace(string(name)), perf)
	case errors.Is(perr, fs.ErrNotExist):
		return "", badInput("pid %d is a java process without perf data (%s): it runs with -XX:-UsePerfData, or in another mount namespace; run jvmfit where its /tmp is", pid, perf)
	default:
		return "", badInput("pid %d: cannot read its perf data: %v", pid, perr)
	}
}

func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return strconv.Itoa(uid)
}

// liveAfterOldGC is the old generation's use at the sample after the last
// old or full collection that ended in the window (true), else its lowest
// use over the window (false), which a young GC's promotions can only
// have raised since the last old one.
func liveAfterOldGC(s []probe.Sample) (int64, bool) {
	var first, prev, live, lowest int64
	seen, measured := false, false
	for _, x := range s {
		if !x.HasJVM() {
			continue
		}
		if !seen {
			seen, first, prev = true, x.OldGCs, x.OldGCs
		}
		if x.OldGCs > prev && x.OldGCs > first {
			live, measured = x.OldUsed, true
		}
		prev = max(prev, x.OldGCs)
		if lowest == 0 || x.OldUsed < lowest {
			lowest = x.OldUsed
		}
	}
	if measured {
		return live, true
	}
	return lowest, false
}

// cgroupMemDir is the memory cgroup directory of pid, "" when unknown.
func cgroupMemDir(pid int) string {
	h, err := cgroup.ReadHierarchyOf("/", strconv.Itoa(pid))
	if err != nil {
		return ""
	}
	return h.Dir("memory")
}

func limitFile(dir string) string {
	if _, err := os.Stat(filepath.Join(dir, "memory.limit_in_bytes")); err == nil {
		return "memory.limit_in_bytes"
	}
	return "memory.max"
}

// groupStats reads the memory figures of the process's group.
func groupStats(dir string) (probe.CgroupStats, error) {
	var s probe.CgroupStats
	var err error
	if s.Usage, err = cgroup.ReadInt(dir, "memory.usage_in_bytes"); err != nil {
		if s.Usage, err = cgroup.ReadInt(dir, "memory.current"); err != nil {
			return s, err
		}
	}
	st, _ := cgroup.ReadKeyed(dir, "memory.stat")
	if _, v1 := st["rss"]; v1 {
		s.RSS, s.Cache = st["rss"], st["cache"]
	} else {
		s.RSS, s.Cache = st["anon"], st["file"]
	}
	return s, nil
}

// cpusOf is the CPUs pid may use: its affinity's count.
func cpusOf(pid int) float64 {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return 0
	}
	return float64(set.Count())
}

// majorOf reads the feature release from java.vm.version ("17.0.15+6-…",
// "1.8.0_412-b08" → 8).
func majorOf(v string) int {
	f := strings.FieldsFunc(strings.TrimPrefix(v, "1."), func(r rune) bool { return r < '0' || r > '9' })
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}
