//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// TestTrialCgroupHasPidsLimit: a trial's processes sit in a pids group of
// the trial's own whose pids.max is the default when the caller gives
// none, so a fork bomb in a trial stops at the limit instead of filling
// the host's process table.
func TestTrialCgroupHasPidsLimit(t *testing.T) {
	needCgroups(t)
	p := start(t, context.Background(), Spec{Name: "pids", Argv: []string{"sleep", "60"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	if got := pidsMax(t, p.Pid()); got != "4096" {
		t.Errorf("pids.max of the trial's pids group is %q, want the default 4096", got)
	}
}

// pidsMax reads pids.max of pid's group on the pids hierarchy (v1) or
// the unified one (v2); a process in the hierarchy's root has none.
func pidsMax(t *testing.T, pid int) string {
	t.Helper()
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || !(h.Version == 1 && strings.Contains(","+f[1]+",", ",pids,") || h.Version == 2 && f[0] == "0") {
			continue
		}
		mount := h.Mounts["pids"]
		if h.Version == 2 {
			mount = h.Mounts["memory"]
		}
		dir := filepath.Join(mount, f[2])
		if !strings.Contains(dir, "jvmfit-") {
			t.Fatalf("process %d sits in %s, not in a trial group", pid, dir)
		}
		v, err := os.ReadFile(filepath.Join(dir, "pids.max"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(v))
	}
	t.Fatalf("process %d has no pids cgroup:\n%s", pid, b)
	return ""
}

// A caller's own pids limit is the one set, and the kernel holds the
// trial to it: a shell under a limit of 8 that forks 20 sleeps gets no
// more than 8 tasks (the forks past it fail, and may end the shell).
func TestTrialCgroupHasPidsLimitGiven(t *testing.T) {
	needCgroups(t)
	p := start(t, context.Background(), Spec{Name: "pids8",
		// bash, not sh: dash exits when a fork fails, and the test would
		// then read a zombie's cgroup; bash reports the failure and goes on.
		Argv:   []string{"bash", "-c", strings.Repeat("sleep 30 & ", 20) + "echo forked; sleep 30"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1, Pids: 8}})
	paths := p.group.Paths()
	if got := groupPidsMax(t, paths); got != "8" {
		t.Errorf("pids.max is %q, want 8", got)
	}
	most := 0
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		pids, _ := p.group.Procs()
		most = max(most, len(pids))
	}
	if most > 8 || most < 2 {
		t.Errorf("at most %d processes in a group limited to 8", most)
	}
	p.Stop(0)
	assertGone(t, nil, paths)
}

// groupPidsMax is the pids.max of a trial's groups (the pids hierarchy's
// on v1, the unified group's on v2), read from the group itself, not
// through a process that may have ended.
func groupPidsMax(t *testing.T, paths []string) string {
	t.Helper()
	for _, d := range paths {
		if b, err := os.ReadFile(filepath.Join(d, "pids.max")); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	t.Fatalf("no pids.max in the trial's groups %v", paths)
	return ""
}
