//go:build linux

package docker

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestPodmanTempDirNotPredictable: a directory (here a symlink) someone
// made first at the name a jvmfit of this pid would use is never taken as
// podman's working directory, where conmon writes as root.
func TestPodmanTempDirNotPredictable(t *testing.T) {
	pid := os.Getpid()
	elsewhere := t.TempDir()
	planted := filepath.Join(os.TempDir(), "jvmfit-podman-"+strconv.Itoa(pid))
	if err := os.Symlink(elsewhere, planted); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(planted) })
	dir, err := podmanWorkDir(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if dir != planted {
			os.RemoveAll(dir)
		}
	})
	st, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if dir == planted || !st.IsDir() || st.Mode().Perm() != 0o700 || int(st.Sys().(*syscall.Stat_t).Uid) != os.Geteuid() {
		t.Errorf("podman's working directory %s (%v, uid %d): want a new 0700 directory of ours, not %s",
			dir, st.Mode(), st.Sys().(*syscall.Stat_t).Uid, planted)
	}
	again, err := podmanWorkDir(pid)
	if err == nil {
		os.RemoveAll(again)
	}
	if again == dir {
		t.Errorf("two sandboxes of one jvmfit got the same directory %s", dir)
	}
}
