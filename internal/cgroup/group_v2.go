//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// grpV2 is a trial group on the unified hierarchy: one directory.
type grpV2 struct {
	m    *Manager
	dir  string
	base string
	spec Spec
	mu   sync.Mutex
	gone bool
	peak int64
}

// grpWantedV2 are the controllers a trial group needs, in the order the
// kernel accepts them in cgroup.subtree_control.
var grpWantedV2 = []string{"cpu", "cpuset", "memory", "pids"}

func (m *Manager) createV2(name string, s Spec) (Group, error) {
	own := m.h.Dir("")
	if own == "" {
		own = m.h.Dir("memory")
	}
	base := filepath.Join(own, m.baseName())
	g := &grpV2{m: m, dir: filepath.Join(base, name), base: base, spec: s}
	// Controllers flow down: our own cgroup enables them for jvmfit-<pid>,
	// which enables them for the trial groups.
	if err := grpEnableV2(own); err != nil {
		return nil, err
	}
	if _, err := m.grpEnsureDir(base); err != nil {
		return nil, fmt.Errorf("cannot create %s (%v): %s", base, err, grpNotWritableAdvice)
	}
	if err := grpEnableV2(base); err != nil {
		m.grpRemoveBase(base)
		return nil, err
	}
	if err := m.grpMkdir(g.dir); err != nil {
		m.grpRemoveBase(base)
		return nil, fmt.Errorf("cannot create cgroup %s: %v", g.dir, err)
	}
	if err := g.apply(); err != nil {
		g.removeLocked()
		return nil, err
	}
	return g, nil
}

// grpEnableV2 turns on, for dir's children, the wanted controllers dir has.
func grpEnableV2(dir string) error {
	have, err := grpReadString(dir, "cgroup.controllers")
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", filepath.Join(dir, "cgroup.controllers"), err)
	}
	avail := map[string]bool{}
	for _, c := range strings.Fields(have) {
		avail[c] = true
	}
	on, _ := grpReadString(dir, "cgroup.subtree_control")
	enabled := map[string]bool{}
	for _, c := range strings.Fields(on) {
		enabled[c] = true
	}
	var add []string
	for _, c := range grpWantedV2 {
		if avail[c] && !enabled[c] {
			add = append(add, "+"+c)
		}
	}
	if !avail["memory"] || !avail["cpu"] {
		return fmt.Errorf("cgroup %s does not offer the memory and cpu controllers (has %q): %s", dir, have, grpNotWritableAdvice)
	}
	if len(add) == 0 {
		return nil
	}
	err = grpWrite(dir, "cgroup.subtree_control", strings.Join(add, " "))
	if err != nil && errors.Is(err, syscall.EBUSY) {
		// cgroup v2's "no internal processes" rule: a cgroup holding
		// processes cannot hand controllers to children.
		return fmt.Errorf("cgroup %s holds processes, so it cannot delegate controllers: run jvmfit in a cgroup of its own with a delegated sub-tree, or use --no-limits", dir)
	}
	return err
}

func (g *grpV2) apply() error {
	if g.spec.MemoryBytes > 0 {
		if err := grpWrite(g.dir, "memory.max", strconv.FormatInt(g.spec.MemoryBytes, 10)); err != nil {
			return err
		}
		// memory.swap.max exists only with swap accounting; without it
		// there is no swap to forbid.
		if err := grpWriteOptional(g.dir, "memory.swap.max", "0"); err != nil {
			return err
		}
		// One OOM kill takes the whole group, as a container runtime does,
		// so a JVM never limps on without a helper it needs.
		_ = grpWriteOptional(g.dir, "memory.oom.group", "1")
	}
	if g.spec.CPUs > 0 {
		v := fmt.Sprintf("%d %d", grpQuota(g.spec.CPUs), grpPeriod)
		if err := grpWrite(g.dir, "cpu.max", v); err != nil {
			return err
		}
	}
	if g.spec.CPUSet != "" {
		if err := grpWrite(g.dir, "cpuset.cpus", g.spec.CPUSet); err != nil {
			avail, _ := grpReadString(g.base, "cpuset.cpus.effective")
			return fmt.Errorf("cpuset %q refused: this process may use CPUs %s", g.spec.CPUSet, avail)
		}
	}
	return nil
}

func (g *grpV2) Path() string    { return g.dir }
func (g *grpV2) Paths() []string { return []string{g.dir} }

func (g *grpV2) AddProc(pid int) error {
	return grpWrite(g.dir, "cgroup.procs", strconv.Itoa(pid))
}

func (g *grpV2) Procs() ([]int, error) { return grpReadProcs(g.dir) }

func (g *grpV2) Kill() error {
	// cgroup.kill (5.14+) kills atomically, forks included; the loop below
	// then only confirms the group is empty.
	if _, err := os.Stat(filepath.Join(g.dir, "cgroup.kill")); err == nil {
		_ = grpWrite(g.dir, "cgroup.kill", "1")
	}
	return grpKillProcs(g.dir, 5*time.Second)
}

func (g *grpV2) Remove() error {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	return g.removeLocked()
}

func (g *grpV2) removeLocked() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gone {
		return nil
	}
	if err := g.m.grpRemove(g.dir, 3*time.Second); err != nil {
		return err
	}
	g.m.grpRemoveBase(g.base)
	g.gone = true
	return nil
}
