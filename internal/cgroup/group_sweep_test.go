//go:build linux

package cgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// grpDeadPid returns the pid of a process that has already exited.
func grpDeadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// The stale groups go below a base of this test's own: every sandbox in
// the packages go test runs beside this one sweeps the shared own cgroup
// once, and would rightly remove a dead pid's group before this Sweep
// could report it.
func TestGroupSweepRealV1(t *testing.T) {
	m := grpRealManager(t)
	mem := filepath.Join(m.h.Dir("memory"), "sweeptest-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = grpRmdir(mem, 0) })
	h := m.h
	h.Dirs = map[string]string{"memory": mem}
	m.h = h
	dead := filepath.Join(mem, "jvmfit-"+strconv.Itoa(grpDeadPid(t)))
	busy := filepath.Join(mem, "jvmfit-"+strconv.Itoa(grpDeadPid(t)))
	sleeper, release := grpStartHeld(t, "exec sleep 30")
	release()
	alive := filepath.Join(mem, "jvmfit-"+strconv.Itoa(sleeper.Process.Pid))
	t.Cleanup(func() {
		for _, d := range []string{dead, busy, alive} {
			_ = grpKillProcs(filepath.Join(d, "t"), 0)
			_ = grpRmdir(filepath.Join(d, "t"), 0)
			_ = grpRmdir(d, 0)
		}
	})
	for _, d := range []string{dead, busy, alive} {
		if err := os.MkdirAll(filepath.Join(d, "t"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A stale group that still holds a process is not Sweep's to remove.
	holder, release2 := grpStartHeld(t, "exec sleep 30")
	if err := grpWrite(filepath.Join(busy, "t"), "cgroup.procs", strconv.Itoa(holder.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	release2()

	removed, err := m.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || removed[0] != dead || removed[1] != filepath.Join(dead, "t") {
		t.Errorf("removed %v, want only %s and its group", removed, dead)
	}
	for _, d := range []string{busy, alive} {
		if _, err := os.Stat(filepath.Join(d, "t")); err != nil {
			t.Errorf("%s: %v (must be kept)", d, err)
		}
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("%s kept", dead)
	}
	// What the Sweep kept is what a later one must try again.
	if st := m.Stale(); len(st) != 1 || st[0] != busy {
		t.Errorf("Stale() = %v, want only %s", st, busy)
	}
	_ = syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
	_ = holder.Wait()
	if _, err := m.Sweep(); err != nil {
		t.Fatal(err)
	}
	if st := m.Stale(); len(st) != 0 {
		t.Errorf("Stale() = %v after the holder died and a second Sweep", st)
	}
}

func TestGroupSweepFixtureV2(t *testing.T) {
	m, own := grpV2Manager(t, true)
	stale := filepath.Join(own, "jvmfit-999999999")
	other := filepath.Join(own, "not-jvmfit-999999999")
	for _, d := range []string{filepath.Join(stale, "a"), filepath.Join(stale, "b"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := m.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 3 {
		t.Errorf("removed %v", removed)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a directory not named jvmfit-<pid> was touched: %v", err)
	}
}
