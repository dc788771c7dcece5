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
func (m *Manager) grpRemoveBase(base string) {
	if ents, err := os.ReadDir(base); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				return
			}
		}
	}
	if m.k.Rmdir(base) != nil {
		return
	}
	if m.place != nil && m.place.Shared != "" && filepath.Dir(base) == m.place.Shared {
		_ = m.k.Rmdir(m.place.Shared) // EBUSY while another jvmfit lives there
	}
}
