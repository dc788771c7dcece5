//go:build linux

package probe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// The attach trigger is created through /proc/PID/cwd; when the JVM exits
// while being attached, that path is gone by the time the trigger is
// removed. The file must still go from the directory it was made in.
func TestAttachTriggerRemovedAfterTheProcessExits(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "60")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	name := ".attach_pid" + strconv.Itoa(pid)
	remove, err := createTrigger(filepath.Join("/proc", strconv.Itoa(pid), "cwd"), name)
	if err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Fatalf("trigger not in the process's directory: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	remove()
	if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
		t.Errorf("%s left in %s after the process exited (%v)", name, dir, err)
	}
}
