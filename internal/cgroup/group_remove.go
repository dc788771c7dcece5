//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// grpRemove deletes one trial directory, retrying while the kernel still
// counts exiting tasks (EBUSY). A missing dir is success.
func (m *Manager) grpRemove(dir string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := m.k.Rmdir(dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("cannot remove cgroup %s: %v", dir, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// grpRemoveBase removes jvmfit-<pid> once its last trial group is gone;
// while another trial still lives there the rmdir fails and that is fine.
// A shared parent that jvmfit made (jvmfit.slice) goes too once empty.
// The kernel answers EBUSY for a moment after a child's rmdir (the child
// is still going offline), so an empty directory is retried briefly.
func (m *Manager) grpRemoveBase(base string) {
	if !hasChildDir(base) && m.grpRemove(base, time.Second) != nil {
		return
	}
	if m.place != nil && m.place.Shared != "" && filepath.Dir(base) == m.place.Shared && !hasChildDir(m.place.Shared) {
		_ = m.grpRemove(m.place.Shared, 200*time.Millisecond) // another jvmfit may be making its own there
	}
}

// hasChildDir says whether dir has a child cgroup (a subdirectory).
func hasChildDir(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() {
			return true
		}
	}
	return false
}
