//go:build linux

package docker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// oomGroup makes a memory cgroup of 16 MiB (memory and memory+swap)
// below this process's own sub-tree, removed at the end.
func oomGroup(t *testing.T, name string) string {
	t.Helper()
	prereq.Root(t)
	tree, err := OwnTree(os.Getpid(), DriverCgroupfs)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tree.Mount, filepath.Dir(tree.Parent), "oomevents-"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Rmdir(dir)
		_ = syscall.Rmdir(filepath.Dir(dir)) // jvmfit-<pid>, if nothing else uses it
	})
	for _, f := range []string{"memory.limit_in_bytes", "memory.memsw.limit_in_bytes"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(strconv.Itoa(16<<20)), 0); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs a shell command that first moves itself into group dir.
func runIn(dir, command string) error {
	return exec.Command("sh", "-c", "echo $$ > "+dir+"/cgroup.procs && exec "+command).Run()
}

// TestOOMEventsOutliveTheCgroup: a process OOM-killed in a group that is
// then removed (as Podman removes a container's) still counts as an OOM,
// although the group's oom_kill counter can no longer be read.
func TestOOMEventsOutliveTheCgroup(t *testing.T) {
	dir := oomGroup(t, "killed")
	w, err := watchOOMEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	// dd's 64 MiB buffer, filled from /dev/zero, cannot fit in 16 MiB.
	err = runIn(dir, "dd if=/dev/zero of=/dev/null bs=64M count=1")
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("dd in 16 MiB ended with %v, want SIGKILL", err)
	}
	if n, ok := oomKillCount(dir, false); !ok || n != 1 {
		t.Fatalf("oom_kill counter %d (%v), want 1", n, ok)
	}
	if err := syscall.Rmdir(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := oomKillCount(dir, false); ok {
		t.Fatal("the counter is still readable after the rmdir")
	}
	if n := w.ooms(time.Second); n != 1 {
		t.Errorf("OOMs after the group's removal: %d, want 1", n)
	}
}

// TestOOMEventsWhileTheCgroupExists: read before the removal, the count is
// the OOM's alone, at once.
func TestOOMEventsWhileTheCgroupExists(t *testing.T) {
	dir := oomGroup(t, "present")
	w, err := watchOOMEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	_ = runIn(dir, "dd if=/dev/zero of=/dev/null bs=64M count=1")
	start := time.Now()
	if n := w.ooms(5 * time.Second); n != 1 {
		t.Errorf("OOMs: %d, want 1", n)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("ooms waited %v with the group still there", d)
	}
}

// TestOOMEventsNoOOM: the removal's own signal is not taken for an OOM.
func TestOOMEventsNoOOM(t *testing.T) {
	dir := oomGroup(t, "clean")
	w, err := watchOOMEvents(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if err := runIn(dir, "true"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Rmdir(dir); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the removal's signal arrive
	if n := w.ooms(300 * time.Millisecond); n != 0 {
		t.Errorf("OOMs in a group where nothing ran out of memory: %d, want 0", n)
	}
	if w.total != 1 {
		t.Errorf("eventfd count %d after the removal, want 1 (the removal's)", w.total)
	}
}

// TestWatchOOMOnlyForPodman: only Podman's containers get the eventfd;
// Docker reports OOM kills itself.
func TestWatchOOMOnlyForPodman(t *testing.T) {
	dir := oomGroup(t, "engines")
	if w := Default().watchOOM(dir); w != nil {
		w.close()
		t.Error("docker: an OOM watch was registered")
	}
	w := Engine{Bin: "podman"}.watchOOM(dir)
	if w == nil {
		t.Fatal("podman: no OOM watch")
	}
	w.close()
	if w := (Engine{Bin: "podman"}).watchOOM(dir + "-missing"); w != nil {
		t.Error("podman: a watch on a missing cgroup")
	}
}
