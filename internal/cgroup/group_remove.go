//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"time"
)

// grpRemove deletes one trial directory. On a fixture tree the files the
// fixture "kernel" made must go first; a real cgroupfs removes them itself.
func (m *Manager) grpRemove(dir string, timeout time.Duration) error {
	if m.grpPopulate != nil {
		grpRemoveFixtureFiles(dir)
	}
	return grpRmdir(dir, timeout)
}

// grpRemoveBase removes jvmfit-<pid> once its last trial group is gone;
// while another trial still lives there the rmdir fails and that is fine.
func (m *Manager) grpRemoveBase(base string) {
	if m.grpPopulate != nil {
		if ents, err := os.ReadDir(base); err == nil {
			for _, e := range ents {
				if e.IsDir() {
					return
				}
			}
			grpRemoveFixtureFiles(base)
		}
	}
	_ = os.Remove(base)
}

func grpRemoveFixtureFiles(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
