//go:build linux

package docker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// A jvmfit killed after its containers were removed leaves no labelled
// container, only its jvmfit-<pid>/docker sub-tree, which the engine made
// in every hierarchy, the named ones (systemd, unified) included. Sweep
// finds it by the dead pid and removes it everywhere; a live pid's is kept.
func TestSweepTreesWithoutContainers(t *testing.T) {
	prereq.Root(t)
	own, err := OwnTree(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid := dead.Process.Pid
	base := filepath.Dir(filepath.Dir(own.Parent))
	var made []string
	for _, h := range []string{"memory", "systemd", "unified"} {
		root := filepath.Join(filepath.Dir(own.Mount), h)
		if _, err := os.Stat(filepath.Join(root, base)); err != nil {
			continue // this hierarchy is not mounted here
		}
		for _, p := range []int{pid, os.Getpid()} {
			d := filepath.Join(root, base, "jvmfit-"+strconv.Itoa(p), "docker")
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if p == pid {
				made = append(made, filepath.Dir(d))
			} else {
				t.Cleanup(func() { Tree{Mount: own.Mount, Parent: own.Parent}.removeDirs(os.Getpid()) })
			}
		}
	}
	if len(made) < 2 {
		t.Fatalf("made the dead pid's sub-tree in %d hierarchies, want the memory one and a named one", len(made))
	}
	found := false
	for _, p := range own.deadPids(os.Getpid()) {
		found = found || p == pid
		if p == os.Getpid() {
			t.Error("deadPids lists this live process")
		}
	}
	if !found {
		t.Fatalf("deadPids misses pid %d", pid)
	}
	own.removeDirs(pid)
	for _, d := range made {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s left after the sweep", d)
		}
	}
	if _, err := os.Stat(filepath.Join(own.Mount, base, "jvmfit-"+strconv.Itoa(os.Getpid()), "docker")); err != nil {
		t.Errorf("the live process's sub-tree went too: %v", err)
	}
}
