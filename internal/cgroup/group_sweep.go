//go:build linux

package cgroup

import (
	"errors"
	"io/fs"
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
var grpBaseRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^jvmfit-([0-9]+)(\.scope|\.slice)?$`) })

// Sweep removes trial groups that a crashed jvmfit left behind: only in
// the places a jvmfit here makes them (SweepDirs), only in jvmfit-<pid>
// trees (or systemd's jvmfit-<pid>.scope) whose pid is dead, and only
// groups with no process left (a live process is never touched). It
// returns the directories it removed.
func (m *Manager) Sweep() ([]string, error) {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	var removed []string
	var first error
	for _, own := range m.SweepDirs() {
		for _, tree := range m.staleIn(own) {
			r, err := m.grpSweepTree(tree)
			removed = append(removed, r...)
			if err != nil && first == nil {
				first = err
			}
		}
		if filepath.Base(own) == sliceName && m.k.Rmdir(own) == nil {
			removed = append(removed, own) // empty now: whoever empties it removes it
		}
	}
	sort.Strings(removed)
	return removed, first
}

// Stale lists the dead jvmfits' trees still there: those a Sweep kept
// because a group in them still held a process. Right after a SIGKILL
// that is usually the killed JVM's threads still exiting, so a caller
// sweeps again later while Stale is not empty.
func (m *Manager) Stale() []string {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	var out []string
	for _, own := range m.SweepDirs() {
		out = append(out, m.staleIn(own)...)
	}
	sort.Strings(out)
	return out
}

// staleIn lists dir's jvmfit-<pid> trees whose pid is dead (not ours).
func (m *Manager) staleIn(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		sub := grpBaseRE().FindStringSubmatch(e.Name())
		if !e.IsDir() || sub == nil {
			continue
		}
		pid, _ := strconv.Atoi(sub[1])
		if pid == m.pid || PidAlive(pid) {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// SweepDirs are the directories whose jvmfit-<pid> children Sweep looks
// at: on v1 the own cgroups; on v2 the own cgroup and each ancestor, and
// the jvmfit.slice in each, which covers every placement (place.go).
func (m *Manager) SweepDirs() []string {
	set := map[string]bool{}
	for _, d := range m.h.Dirs {
		set[d] = true
	}
	if m.version == 2 {
		mount := m.h.Mounts[""]
		for dir := m.h.Dir(""); dir != "" && len(dir) >= len(mount); dir = filepath.Dir(dir) {
			set[dir] = true
			set[filepath.Join(dir, sliceName)] = true
			if dir == mount {
				break
			}
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	// Slices last: their own jvmfit-<pid> trees go before the slice is tried.
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// grpSweepTree removes empty groups leaves first; a group that still holds
// processes keeps itself and its parents.
func (m *Manager) grpSweepTree(dir string) ([]string, error) {
	var removed []string
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		// Another cleaner (a dead jvmfit's keeper, sandbox/keeper.go)
		// removed it while the sweep walked: it is gone all the same.
		return []string{dir}, nil
	}
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
	if err := m.grpRemove(dir, 500*time.Millisecond); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
