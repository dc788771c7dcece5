//go:build linux

package kube

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jvmfit/jvmfit/internal/backend/local"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Agent is `jvmfit agent`, the trial pod's jvmfit container: it runs the
// trial of task with the trial package's own steps (readiness on
// localhost, the scenario through the load package, the probe's samples),
// its sandbox attached to the app container's JVM, and writes the result:
// whole on a marked line of out (the container's log), and as the
// termination message at msgPath. progress gets the trial's steps.
func Agent(ctx context.Context, task Task, out, progress io.Writer, msgPath string) error {
	r, err := runAgent(ctx, task, progress, "/proc")
	m := Message{Result: r}
	if err != nil {
		m = Message{Error: err.Error()}
	} else if err := WriteLogLine(out, r); err != nil {
		return err
	}
	s, encErr := EncodeMessage(m)
	if encErr != nil {
		return encErr
	}
	if werr := os.WriteFile(msgPath, []byte(s), 0o644); werr != nil {
		return fmt.Errorf("writing the termination message: %w", werr)
	}
	return err
}

func runAgent(ctx context.Context, task Task, progress io.Writer, proc string) (*trial.Result, error) {
	dir, err := os.MkdirTemp("", "jvmfit-agent-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	a, err := task.appIn(dir)
	if err != nil {
		return nil, err
	}
	o := trial.Options{Progress: progress, LogDir: dir}
	d := o.Deps(attachSandbox{proc: proc, wait: a.ReadyTimeout}, podProber{inner: local.Prober{}})
	return trial.Run(ctx, task.Spec, a, d)
}

// podProber samples the app with the probe package, its cgroup read
// through the app's own mount of it (/proc/PID/root/sys/fs/cgroup).
type podProber struct{ inner trial.Prober }

func (pp podProber) Start(ctx context.Context, p trial.Process, spec trial.Spec) trial.Sampling {
	return trial.ProbeSampling(ctx, pp.target(p, spec))
}

// target is what the pod's sampler reads: the spec's settings (the full GC
// at the end of a profile's trial) as every backend applies them.
func (pp podProber) target(p trial.Process, spec trial.Spec) probe.Target {
	t := probe.Target{Pid: p.Pid(), NMT: true, FullGCAtEnd: spec.FullGCAtEnd}
	if a, ok := p.(*attached); ok {
		t.PerfData = perfDataOf(a.proc, a.pid)
		if a.memDir != "" {
			t.CgroupDir = a.memDir
			t.CgroupStats = func() (probe.CgroupStats, error) { return cgroupStats(a.memDir, a.cpuDir) }
		}
	}
	return t
}

// NMT is read as on this machine (the pod shares the app's pid
// namespace): the attach socket, then jcmd.
func (pp podProber) NMT(ctx context.Context, jcmd string, pid int) (map[string]trial.NMT, error) {
	return pp.inner.NMT(ctx, jcmd, pid)
}

// perfDataOf is the JVM's hsperfdata file inside its container: the
// agent's /tmp is not the app's, and its user may be unknown here.
func perfDataOf(proc string, pid int) string {
	root := filepath.Join(proc, strconv.Itoa(pid), "root", "tmp")
	if m, _ := filepath.Glob(filepath.Join(root, "hsperfdata_*", strconv.Itoa(pid))); len(m) > 0 {
		return m[0]
	}
	return filepath.Join(root, "hsperfdata_root", strconv.Itoa(pid))
}

// cgroupStats reads one sample of the app's groups (v1 or v2 files).
func cgroupStats(mem, cpu string) (probe.CgroupStats, error) {
	var s probe.CgroupStats
	var err error
	if s.Usage, err = readCgroupInt(mem, "memory.usage_in_bytes", "memory.current"); err != nil {
		return s, err
	}
	s.Peak, _ = readCgroupInt(mem, "memory.max_usage_in_bytes", "memory.peak")
	st, _ := cgroup.ReadKeyed(mem, "memory.stat") // absent: zeros
	if _, v1 := st["rss"]; v1 {
		s.RSS, s.Cache = st["rss"], st["cache"]
	} else {
		s.RSS, s.Cache = st["anon"], st["file"]
	}
	if cpu == "" {
		cpu = mem
	}
	if ns, err := readCgroupInt(cpu, "cpuacct.usage"); err == nil {
		s.CPUUsage = time.Duration(ns)
	} else if cs, _ := cgroup.ReadKeyed(cpu, "cpu.stat"); cs["usage_usec"] > 0 {
		s.CPUUsage = time.Duration(cs["usage_usec"]) * time.Microsecond
	}
	cs, _ := cgroup.ReadKeyed(cpu, "cpu.stat")
	s.NrThrottled = cs["nr_throttled"]
	if v, ok := cs["throttled_usec"]; ok {
		s.Throttled = time.Duration(v) * time.Microsecond
	} else {
		s.Throttled = time.Duration(cs["throttled_time"])
	}
	return s, nil
}
