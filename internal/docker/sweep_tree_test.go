//go:build linux

package docker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// A jvmfit killed after its containers were removed leaves no labelled
// container, only its jvmfit-<pid>/docker sub-tree, which the engine made
// in every hierarchy, the named ones (systemd, unified) included. Sweep
// finds it by the dead pid and removes it everywhere; a live pid's is kept.
//
// The trees go below a base of this test's own. Under the real base, any
// other jvmfit or test binary sweeping at the same time (go test runs
// packages in parallel, all in one cgroup) would rightly remove the dead
// pid's tree before this test looks, which failed CI once.
func TestSweepTreesWithoutContainers(t *testing.T) {
	prereq.Root(t)
	own, err := OwnTree(os.Getpid(), DriverCgroupfs)
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid, self := dead.Process.Pid, os.Getpid()
	base := filepath.Join(filepath.Dir(filepath.Dir(own.Parent)), "sweeptest-"+strconv.Itoa(self))
	tree := Tree{Mount: own.Mount, Parent: filepath.Join(base, "jvmfit-"+strconv.Itoa(self), "docker")}
	var made []string
	for _, h := range []string{"memory", "systemd", "unified"} {
		root := filepath.Join(filepath.Dir(own.Mount), h)
		if _, err := os.Stat(root); err != nil {
			continue // this hierarchy is not mounted here
		}
		// The engine makes the base in a named hierarchy when it first
		// gets --cgroup-parent; a fresh machine may have none yet.
		mkdirAllCleaned(t, filepath.Join(root, base))
		for _, p := range []int{pid, self} {
			d := filepath.Join(root, base, "jvmfit-"+strconv.Itoa(p), "docker")
			mkdirAllCleaned(t, d)
			if p == pid {
				made = append(made, filepath.Dir(d))
			}
		}
	}
	if len(made) < 2 {
		t.Fatalf("made the dead pid's sub-tree in %d hierarchies, want the memory one and a named one", len(made))
	}
	found := false
	for _, p := range tree.deadPids(self) {
		found = found || p == pid
		if p == self {
			t.Error("deadPids lists this live process")
		}
	}
	if !found {
		t.Fatalf("deadPids misses pid %d", pid)
	}
	tree.removeDirs(pid)
	for _, d := range made {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s left after the sweep", d)
		}
	}
	if _, err := os.Stat(filepath.Join(own.Mount, base, "jvmfit-"+strconv.Itoa(self), "docker")); err != nil {
		t.Errorf("the live process's sub-tree went too: %v", err)
	}
}

// mkdirAllCleaned makes dir and its missing parents, and removes those it
// made when the test ends, deepest first (cgroup directories go by rmdir).
func mkdirAllCleaned(t *testing.T, dir string) {
	t.Helper()
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-registered first, so register shallow ones first.
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		t.Cleanup(func() { _ = syscall.Rmdir(d) })
	}
}
