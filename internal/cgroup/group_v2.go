//go:build linux

package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
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
	// A missing controller or right is refused before anything is made
	// or moved.
	if err := m.Check(s); err != nil {
		return nil, err
	}
	base, err := m.prepareBase()
	if err != nil {
		return nil, err
	}
	g := &grpV2{m: m, dir: filepath.Join(base, name), base: base, spec: s}
	if err := m.grpMkdir(g.dir); err != nil {
		m.grpRemoveBase(base)
		return nil, placeFault("create", g.dir, err)
	}
	if err := g.apply(); err != nil {
		g.removeLocked()
		return nil, err
	}
	return g, nil
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
	// pids.max exists where the place hands the pids controller down;
	// without it there is no such limit to set (as on v1).
	if g.spec.Pids > 0 {
		if err := grpWriteOptional(g.dir, "pids.max", strconv.FormatInt(g.spec.Pids, 10)); err != nil {
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

// PrepareBase makes, on v2, this jvmfit's sub-tree jvmfit-<pid> in its
// place, with the controllers handed down to its children, and returns its
// directory: where a container engine's cgroupfs driver puts jvmfit's
// containers (internal/docker). The caller removes it with RemoveBase.
func (m *Manager) PrepareBase() (string, error) {
	if m.version != 2 {
		return "", fmt.Errorf("PrepareBase is for cgroup v2; on v1 the sub-tree is below the own cgroups (Base)")
	}
	if err := m.Check(Spec{}); err != nil {
		return "", err
	}
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	return m.prepareBase()
}

// RemoveBase removes jvmfit-<pid> (and an emptied jvmfit.slice) once
// nothing is left below it; while something is, it stays.
func (m *Manager) RemoveBase() {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	m.grpRemoveBase(m.Base())
}

func (m *Manager) prepareBase() (string, error) {
	p, err := m.prepared()
	if err != nil {
		return "", err
	}
	m.place = p
	base := filepath.Join(p.Parent, m.baseName())
	for try := 0; ; try++ {
		if err := m.ensureShared(p); err != nil {
			return "", err
		}
		_, err := m.grpEnsureDir(base)
		if err == nil {
			break
		}
		// Another jvmfit removed the empty jvmfit.slice meanwhile.
		if !os.IsNotExist(err) || try == 3 {
			return "", placeFault("create", base, err)
		}
	}
	// Controllers flow down: the place enabled them for jvmfit-<pid>,
	// which enables them for the trial groups.
	if _, err := m.enable(base, p.Controllers); err != nil {
		m.grpRemoveBase(base)
		return "", err
	}
	return base, nil
}
