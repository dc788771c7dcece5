//go:build linux

package cgroup

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Compiled on first use: jvmfit flags must start in a few ms.
var grpBaseRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^jvmfit-([0-9]+)$`) })

// Sweep removes trial groups that a crashed jvmfit left behind: only below
// this process's own cgroups, only in jvmfit-<pid> trees whose pid is dead,
// and only groups with no process left (a live process is never touched).
// It returns the directories it removed.
func (m *Manager) Sweep() ([]string, error) {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	owns := map[string]bool{}
	for _, d := range m.h.Dirs {
		owns[d] = true
	}
	var removed []string
	var first error
	for own := range owns {
		ents, err := os.ReadDir(own)
		if err != nil {
			continue
		}
		for _, e := range ents {
			sub := grpBaseRE().FindStringSubmatch(e.Name())
			if !e.IsDir() || sub == nil {
				continue
			}
			pid, _ := strconv.Atoi(sub[1])
			if pid == m.pid || PidAlive(pid) {
				continue
			}
			r, err := m.grpSweepTree(filepath.Join(own, e.Name()))
			removed = append(removed, r...)
			if err != nil && first == nil {
				first = err
			}
		}
	}
	sort.Strings(removed)
	return removed, first
}

// grpSweepTree removes empty groups leaves first; a group that still holds
// processes keeps itself and its parents.
func (m *Manager) grpSweepTree(dir string) ([]string, error) {
	var removed []string
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	kept := false
	for _, e := range ents {
		if e.IsDir() {
			child := filepath.Join(dir, e.Name())
			r, err := m.grpSweepTree(child)
			removed = append(removed, r...)
			if err != nil {
				return removed, err
			}
			if len(r) == 0 || r[len(r)-1] != child {
				kept = true
			}
		}
	}
	if kept {
		return removed, nil
	}
	if pids, err := grpReadProcs(dir); err == nil && len(pids) > 0 {
		return removed, nil
	}
	if err := m.grpRemove(dir, 500*time.Millisecond); err != nil {
		return removed, err
	}
	return append(removed, dir), nil
}

// PidAlive says whether a process with this pid exists (EPERM means it
// does, and belongs to someone else): the test every sweep of a dead
// jvmfit's leftovers makes, cgroups, containers and directories alike.
func PidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
