//go:build linux

package probe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

// TestSamplerRealJVM steers a real JVM and checks that each change shows up
// in the series, then summarises it.
func TestSamplerRealJVM(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx128m", "-XX:+UseSerialGC")
	var calls atomic.Int64
	cg := func() (CgroupStats, error) {
		n := calls.Add(1)
		return CgroupStats{Usage: n * mib, Peak: 500 * mib, CPUUsage: time.Duration(n) * time.Second, NrThrottled: n, Throttled: time.Duration(n) * time.Millisecond}, nil
	}
	s := Start(context.Background(), Target{Pid: p.Pid, CgroupStats: cg, PSSEvery: 1}, 50*time.Millisecond)
	first := s.Last()
	if first.RSS == 0 || first.Threads == 0 || first.At <= 0 {
		t.Fatalf("no first sample at Start: %+v", first)
	}
	p.Do(t, "threads 10")
	p.Do(t, "fds 20")
	p.Do(t, "alloc 40")
	p.Do(t, "gc")
	time.Sleep(300 * time.Millisecond)
	mid := s.Last()
	series := s.Stop()
	if again := s.Stop(); len(again) != len(series) {
		t.Errorf("second Stop gave %d samples, first %d", len(again), len(series))
	}
	if len(series) < 5 {
		t.Fatalf("%d samples", len(series))
	}
	for i := 1; i < len(series); i++ {
		if series[i].At <= series[i-1].At {
			t.Fatalf("time goes back at %d: %v then %v", i, series[i-1].At, series[i].At)
		}
	}
	// At counts from the process's start, which came before the sampler's.
	if first.At > series[len(series)-1].At || first.At > 60*time.Second {
		t.Errorf("first sample at %v", first.At)
	}

	last := series[len(series)-1]
	if last.Threads < first.Threads+10 || last.JavaThreads < first.JavaThreads+10 {
		t.Errorf("threads %d/%d → %d/%d after starting 10", first.Threads, first.JavaThreads, last.Threads, last.JavaThreads)
	}
	if last.FDs < first.FDs+20 {
		t.Errorf("fds %d → %d after opening 20", first.FDs, last.FDs)
	}
	if last.RSS < first.RSS+30*mib || last.PSS <= 0 || last.PSS > last.RSS+mib {
		t.Errorf("rss %d → %d, pss %d after retaining 40 MiB", first.RSS, last.RSS, last.PSS)
	}
	if last.HeapMax != 128*mib || last.OldGCs <= first.OldGCs || last.OldUsed < 40*mib {
		t.Errorf("jvm: max %d, old GCs %d → %d, old used %d", last.HeapMax, first.OldGCs, last.OldGCs, last.OldUsed)
	}
	if last.ProcCPUTime <= 0 || last.CPUTime != time.Duration(calls.Load())*time.Second || last.CgroupPeak != 500*mib {
		t.Errorf("cpu %v (proc %v), cgroup calls %d, peak %d", last.CPUTime, last.ProcCPUTime, calls.Load(), last.CgroupPeak)
	}
	if mid.At == 0 || mid.At > last.At {
		t.Errorf("Last() during the run: %+v", mid)
	}
	if errs := s.Errors(); len(errs) != 0 {
		t.Errorf("errors with everything readable: %v", errs)
	}

	sum := Summarise(series, 0)
	if sum.LivePeak < 40*mib || sum.LivePeak > 60*mib {
		t.Errorf("live peak %d MiB after a full GC with 40 MiB retained", sum.LivePeak/mib)
	}
	if sum.MappedPeak < sum.LivePeak || sum.MappedPeak > 128*mib || sum.GCCount < 1 || sum.GCTime <= 0 {
		t.Errorf("summary %+v", sum)
	}
	if sum.CgroupPeak != 500*mib || sum.ThreadsPeak != maxThreads(series) {
		t.Errorf("peaks %+v", sum)
	}
}

func maxThreads(s []Sample) int {
	m := 0
	for _, x := range s {
		m = max(m, x.Threads)
	}
	return m
}

// A JVM without perf data, a failing cgroup reader and a process that exits
// during sampling: the sampler records what it can and says what failed.
func TestSamplerDegrades(t *testing.T) {
	p := jvmtest.Start(t, jvmtest.Java17, "-Xmx32m", "-XX:-UsePerfData")
	broken := func() (CgroupStats, error) { return CgroupStats{}, errors.New("cgroup gone") }
	s := Start(context.Background(), Target{Pid: p.Pid, CgroupStats: broken, PSSEvery: 3}, 20*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	p.Cmd.Process.Kill()
	p.Cmd.Wait()
	time.Sleep(100 * time.Millisecond)
	series := s.Stop()
	if len(series) < 3 {
		t.Fatalf("%d samples", len(series))
	}
	pss := 0
	for _, x := range series {
		if x.HasJVM() || x.CgroupUsage != 0 {
			t.Fatalf("fields from sources that failed: %+v", x)
		}
		if x.PSS > 0 {
			pss++
		}
	}
	if want := (len(series) + 2) / 3; pss < want-1 || pss > want+1 {
		t.Errorf("PSS read in %d of %d samples, want every 3rd", pss, len(series))
	}
	errs := s.Errors()
	if errs["cgroup"] == nil || errs["hsperf"] == nil || errs["proc"] == nil {
		t.Errorf("errors %v, want cgroup, hsperf and proc (exited)", errs)
	}
	// The zombie is reaped: no sample can come after the exit.
	if n := len(s.Stop()); n != len(series) {
		t.Errorf("samples after stop: %d → %d", len(series), n)
	}
}

func TestSamplerNoSuchProcess(t *testing.T) {
	s := Start(context.Background(), Target{Pid: 1 << 22}, 10*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	if got := s.Stop(); len(got) != 0 {
		t.Errorf("samples of a missing process: %v", got)
	}
	if s.Errors()["proc"] == nil {
		t.Error("no error for a missing process")
	}
}

// TestProcFixture reads a procfs tree written by the test, so every figure is
// known exactly.
func TestProcFixture(t *testing.T) {
	root := t.TempDir()
	pid := 4242
	dir := filepath.Join(root, strconv.Itoa(pid))
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// utime 250 + stime 50 ticks = 3 s; 23 threads; started at tick 100000
	// (1000 s after boot); rss 5000 pages.
	stat := fmt.Sprintf("%d (java) S 1 %d %d 0 -1 4194304 1000 0 0 0 250 50 0 0 20 0 23 0 100000 3000000000 5000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0", pid, pid, pid)
	write("stat", stat)
	write("status", "Name:\tjava\nVmRSS:\t  204800 kB\nThreads:\t23\n")
	write("smaps_rollup", "00400000-7ffd0 ---p 00000000 00:00 0  [rollup]\nRss:              204800 kB\nPss:              150000 kB\n")
	for i := 0; i < 7; i++ {
		os.MkdirAll(filepath.Join(dir, "fd"), 0o755)
		os.Symlink("/dev/null", filepath.Join(dir, "fd", strconv.Itoa(i)))
	}
	os.WriteFile(filepath.Join(root, "uptime"), []byte("1012.50 2000.00\n"), 0o644)

	s := Start(context.Background(), Target{Pid: pid, ProcRoot: root, PerfData: filepath.Join(root, "none"), PSSEvery: 1}, time.Hour)
	got := s.Stop()
	if len(got) != 2 {
		t.Fatalf("%d samples, want the first and the one at Stop", len(got))
	}
	x := got[0]
	if x.RSS != 204800*1024 || x.PSS != 150000*1024 || x.Threads != 23 || x.FDs != 7 || x.ProcCPUTime != 3*time.Second || x.CPUTime != 3*time.Second {
		t.Errorf("sample %+v", x)
	}
	// 1012.5 s of uptime − 1000 s at start = 12.5 s old.
	if x.At < 12500*time.Millisecond || x.At > 13500*time.Millisecond {
		t.Errorf("age %v, want 12.5 s", x.At)
	}
}
