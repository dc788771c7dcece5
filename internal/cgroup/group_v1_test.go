//go:build linux

package cgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// grpRealManager gives a manager on this machine's cgroups, or fails.
func grpRealManager(t *testing.T) *Manager {
	t.Helper()
	prereq.Root(t)
	m, err := NewManager("/")
	if err != nil {
		t.Fatalf("no writable cgroups here as root: %v", err)
	}
	return m
}

// grpCreate makes a group and removes it at the end of the test, whatever
// happens.
func grpCreate(t *testing.T, m *Manager, name string, s Spec) Group {
	t.Helper()
	g, err := m.Create(name, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = g.Kill()
		if err := g.Remove(); err != nil {
			t.Error(err)
		}
	})
	return g
}

// grpStartHeld starts `sh -c script` blocked on stdin, so that it can join
// the group before it does anything; release lets it go on.
func grpStartHeld(t *testing.T, script string) (cmd *exec.Cmd, release func()) {
	t.Helper()
	cmd = exec.Command("sh", "-c", "read go; "+script)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd, func() { _, _ = in.Write([]byte("go\n")) }
}

func grpRead(t *testing.T, dir, file string) string {
	t.Helper()
	s, err := grpReadString(dir, file)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGroupV1LimitsAreSet(t *testing.T) {
	m := grpRealManager(t)
	if m.Version() != 1 {
		t.Skip("host is not cgroup v1")
	}
	g := grpCreate(t, m, "limits", Spec{MemoryBytes: 64 << 20, CPUs: 0.5, CPUSet: "0"})
	mem := g.Path()
	if !strings.Contains(mem, "jvmfit-"+strconv.Itoa(os.Getpid())) {
		t.Fatalf("group %s is not below jvmfit-<pid>", mem)
	}
	if got := grpRead(t, mem, "memory.limit_in_bytes"); got != strconv.Itoa(64<<20) {
		t.Errorf("memory.limit_in_bytes = %s", got)
	}
	if _, err := os.Stat(filepath.Join(mem, "memory.memsw.limit_in_bytes")); err == nil {
		if got := grpRead(t, mem, "memory.memsw.limit_in_bytes"); got != strconv.Itoa(64<<20) {
			t.Errorf("memsw = %s, want equal to memory (no swap)", got)
		}
	}
	var cpuDir, cpusetDir string
	for _, d := range g.Paths() {
		if _, err := os.Stat(filepath.Join(d, "cpu.cfs_quota_us")); err == nil {
			cpuDir = d
		}
		if _, err := os.Stat(filepath.Join(d, "cpuset.cpus")); err == nil {
			cpusetDir = d
		}
	}
	if cpuDir == "" {
		t.Fatalf("no cpu directory among %v", g.Paths())
	}
	if q, p := grpRead(t, cpuDir, "cpu.cfs_quota_us"), grpRead(t, cpuDir, "cpu.cfs_period_us"); q != "50000" || p != "100000" {
		t.Errorf("quota %s period %s, want 50000 100000", q, p)
	}
	if cpusetDir != "" {
		if got := grpRead(t, cpusetDir, "cpuset.cpus"); got != "0" {
			t.Errorf("cpuset.cpus = %q", got)
		}
		if got := grpRead(t, cpusetDir, "cpuset.mems"); got == "" {
			t.Error("cpuset.mems left empty: tasks could not join")
		}
	}

	cmd, release := grpStartHeld(t, "exec sleep 30")
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	release()
	// Charges start with the pages touched after joining (exec of sleep).
	var st Stats
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var err error
		if st, err = g.Stats(); err != nil {
			t.Fatal(err)
		}
		if st.Usage > 0 {
			break
		}
	}
	if st.Procs != 1 || st.Limit != 64<<20 || st.Usage <= 0 {
		t.Errorf("stats %+v: want 1 process, the limit, some usage", st)
	}
	if err := g.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("process ended with %v, want killed", err)
	}
	if pids, _ := g.Procs(); len(pids) != 0 {
		t.Errorf("procs %v after Kill", pids)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.Paths() {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s still there after Remove", d)
		}
		if _, err := os.Stat(filepath.Dir(d)); !os.IsNotExist(err) {
			t.Errorf("base %s still there after its last group went", filepath.Dir(d))
		}
	}
	if err := g.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestGroupV1OOMKillCounted(t *testing.T) {
	m := grpRealManager(t)
	g := grpCreate(t, m, "oom", Spec{MemoryBytes: 32 << 20, CPUs: 1})
	// dd reads /dev/zero into a 200 MiB buffer, touching every page.
	cmd, release := grpStartHeld(t, "exec dd if=/dev/zero of=/dev/null bs=200M count=1")
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	release()
	err := cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("allocator ended with %v, want SIGKILL by the OOM killer", err)
	}
	n, err := g.OOMKills()
	if err != nil {
		t.Fatal(err)
	}
	st, _ := g.Stats()
	if n < 1 || st.OOMKills != n {
		t.Fatalf("oom kills %d (stats %d), want >= 1", n, st.OOMKills)
	}
	if st.Peak < 30<<20 {
		t.Errorf("peak %d, want near the 32 MiB limit", st.Peak)
	}
}

func TestGroupV1CPUUsageAndThrottling(t *testing.T) {
	m := grpRealManager(t)
	g := grpCreate(t, m, "cpu", Spec{CPUs: 0.2})
	// A busy loop for 0.6 s wall at 0.2 CPU must be throttled.
	cmd, release := grpStartHeld(t, "end=$(($(date +%s%N)+600000000)); while [ $(date +%s%N) -lt $end ]; do :; done")
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	release()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	st, err := g.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.CPUUsage <= 0 || st.CPUUsage > wall/2 {
		t.Errorf("cpu %v over %v wall at 0.2 CPU", st.CPUUsage, wall)
	}
	if st.NrThrottled == 0 || st.Throttled <= 0 {
		t.Errorf("no throttling recorded: %+v", st)
	}
}

func TestGroupCreateRejectsBadInput(t *testing.T) {
	m := &Manager{pid: os.Getpid(), version: 1}
	for _, c := range []struct {
		name string
		s    Spec
	}{
		{"../escape", Spec{}},
		{"", Spec{}},
		{"ok", Spec{MemoryBytes: -1}},
		{"ok", Spec{MemoryBytes: 1000}},
		{"ok", Spec{CPUs: -1}},
		{"ok", Spec{CPUs: 0.001}},
		{"ok", Spec{CPUSet: "zero"}},
	} {
		if _, err := m.Create(c.name, c.s); err == nil {
			t.Errorf("Create(%q, %+v) accepted", c.name, c.s)
		}
	}
}

func TestGroupV1RefusedCpusetLeavesNothing(t *testing.T) {
	m := grpRealManager(t)
	if m.h.Dir("cpuset") == "" {
		t.Skip("no cpuset controller")
	}
	_, err := m.Create("badset", Spec{MemoryBytes: 64 << 20, CPUSet: "4000"})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("cpuset 4000 gave %v", err)
	}
	for _, own := range m.h.Dirs {
		if _, err := os.Stat(filepath.Join(own, m.baseName(), "badset")); !os.IsNotExist(err) {
			t.Errorf("badset left below %s", own)
		}
	}
}
