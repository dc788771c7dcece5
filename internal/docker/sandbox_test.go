//go:build linux

package docker_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// TestFilecacheOKAt256Mi runs filecache's image at 256Mi and 1 CPU (pinned to
// CPU 0, so a loaded machine can hold its start past 2 minutes): it
// answers on its health URL, its cgroup sits in jvmfit's sub-tree with
// memory+swap equal to memory, its pid is the JVM, and Stop removes it.
func TestFilecacheOKAt256Mi(t *testing.T) {
	need(t, filecacheImage)
	s := sandbox(t)
	port := freePort(t)
	start := time.Now()
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-ok", Image: filecacheImage, MemoryBytes: 256 * mi, CPUs: 1, CPUSet: "0",
		Args: []string{"--server.port=" + strconv.Itoa(port)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	if err := waitReady(p, fmt.Sprintf("http://127.0.0.1:%d/actuator/health", port), 240*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Logf("start to ready: %v", time.Since(start).Round(time.Millisecond))

	dir := p.CgroupDir()
	wantUnder := fmt.Sprintf("/jvmfit-%d/docker/", os.Getpid())
	if !strings.Contains(dir, wantUnder) || !strings.HasPrefix(dir, s.Tree.Mount+"/") {
		t.Errorf("container cgroup %s is not under jvmfit's sub-tree (%s%s)", dir, s.Tree.Mount, s.Tree.Parent)
	}
	limit := readCgroupInt(t, dir+"/memory.limit_in_bytes")
	memsw := readCgroupInt(t, dir+"/memory.memsw.limit_in_bytes")
	if limit != 256*mi || memsw != limit {
		t.Errorf("memory.limit_in_bytes %d, memory.memsw.limit_in_bytes %d; want both %d", limit, memsw, 256*mi)
	}
	if q, per := cgroupOf(t, p.Pid(), "cpu", "cpu.cfs_quota_us"), cgroupOf(t, p.Pid(), "cpu", "cpu.cfs_period_us"); q != per {
		t.Errorf("cpu.cfs_quota_us %s, cpu.cfs_period_us %s: want 1 CPU", q, per)
	}
	if set := cgroupOf(t, p.Pid(), "cpuset", "cpuset.cpus"); set != "0" {
		t.Errorf("cpuset.cpus %q, want 0", set)
	}
	// The probes read the JVM's hsperfdata through the host's view of the
	// container's /tmp (a tmpfs); the JVM is pid 1 in its namespace.
	if _, err := os.Stat(fmt.Sprintf("/proc/%d/root/tmp/hsperfdata_root/1", p.Pid())); err != nil {
		t.Errorf("the JVM's hsperfdata is not readable from the host: %v", err)
	}
	cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Pid()))
	if err != nil || !strings.Contains(string(cmd), "/app.jar") {
		t.Errorf("pid %d is not the container's JVM: cmdline %q, %v", p.Pid(), cmd, err)
	}
	peak, err := p.MemoryPeak()
	if err != nil || peak < 32*mi || peak > 256*mi {
		t.Errorf("memory peak %d, %v; want between 32 MiB and the 256 MiB limit", peak, err)
	}

	e := p.Stop(10 * time.Second)
	if e.OOMKilled || e.Signal == "SIGKILL" {
		t.Errorf("stopped with SIGTERM, got %+v", e)
	}
	if err := p.StopErr(); err != nil {
		t.Error(err)
	}
	if ids := containers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after Stop: %v", ids)
	}
}

// TestFilecacheOOMKilledAt64Mi: at 64Mi the kernel kills the JVM, and the
// exit says so.
func TestFilecacheOOMKilledAt64Mi(t *testing.T) {
	need(t, filecacheImage)
	s := sandbox(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-oom", Image: filecacheImage, MemoryBytes: 64 * mi, CPUs: 1,
		Args: []string{"--server.port=" + strconv.Itoa(freePort(t))},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	select {
	case <-p.Done():
	case <-time.After(120 * time.Second):
		t.Fatal("filecache still runs after 120 s at 64Mi")
	}
	if e := p.Exit(); !e.OOMKilled || e.Signal != "SIGKILL" {
		t.Errorf("exit %+v, want OOM-killed (SIGKILL)", e)
	}
	// Not asserted: sampling can miss the counter before the engine
	// removes the cgroup; Docker's own OOMKilled covers this engine.
	t.Logf("oom_kill counter seen in the container's cgroup: %d", p.OOMKillsSeen())
	if peak, err := p.MemoryPeak(); err != nil || peak < 60*mi {
		t.Errorf("memory peak %d, %v; want about the 64 MiB limit", peak, err)
	}
	p.Stop(0)
	if ids := containers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after Stop: %v", ids)
	}
}
