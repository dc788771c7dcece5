//go:build linux

package cgroup

import (
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// grpV1 is a trial group on cgroup v1: one directory per hierarchy.
type grpV1 struct {
	m     *Manager
	dirs  map[string]string // controller -> trial directory
	order []string          // distinct directories, memory first
	bases []string          // the jvmfit-<pid> directory of each hierarchy
	spec  Spec
	mu    sync.Mutex
	gone  bool
	peak  int64 // highest usage seen by Stats
}

func (m *Manager) createV1(name string, s Spec) (Group, error) {
	g := &grpV1{m: m, dirs: map[string]string{}, spec: s}
	seen := map[string]bool{}
	for _, c := range grpControllersV1 {
		own := m.h.Dir(c)
		if own == "" {
			if c == "memory" || c == "cpu" {
				return nil, fmt.Errorf("no %s controller is available to this process; %s", c, grpNotWritableAdvice)
			}
			continue // cpuset, pids or a separate cpuacct may be absent
		}
		base := filepath.Join(own, m.baseName())
		dir := filepath.Join(base, name)
		g.dirs[c] = dir
		if seen[dir] {
			continue // joined hierarchy such as cpu,cpuacct
		}
		seen[dir] = true
		if _, err := m.grpEnsureDir(base); err != nil {
			g.removeLocked()
			return nil, fmt.Errorf("cannot create %s (%v): %s", base, err, grpNotWritableAdvice)
		}
		g.bases = append(g.bases, base)
		if c == "cpuset" {
			// A new v1 cpuset is empty and refuses tasks until it has CPUs
			// and memory nodes, so the base inherits the parent's.
			if err := grpCopyCpuset(own, base); err != nil {
				g.removeLocked()
				return nil, err
			}
		}
		if err := m.grpMkdir(dir); err != nil {
			g.removeLocked()
			return nil, fmt.Errorf("cannot create cgroup %s: %v", dir, err)
		}
		g.order = append(g.order, dir)
	}
	if err := g.apply(); err != nil {
		g.removeLocked()
		return nil, err
	}
	return g, nil
}

// grpCopyCpuset gives dst the parent's cpus and mems unless already set.
func grpCopyCpuset(parent, dst string) error {
	for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
		cur, _ := grpReadString(dst, f)
		if cur != "" {
			continue
		}
		v, err := grpReadString(parent, f)
		if err != nil {
			return fmt.Errorf("cannot read %s: %v", filepath.Join(parent, f), err)
		}
		if err := grpWrite(dst, f, v); err != nil {
			return err
		}
	}
	return nil
}

func (g *grpV1) apply() error {
	mem := g.dirs["memory"]
	if g.spec.MemoryBytes > 0 {
		v := strconv.FormatInt(g.spec.MemoryBytes, 10)
		// memory first: memsw may never be below it.
		if err := grpWrite(mem, "memory.limit_in_bytes", v); err != nil {
			return err
		}
		if err := grpWriteOptional(mem, "memory.memsw.limit_in_bytes", v); err != nil {
			return err
		}
		// Swappiness is refused (EINVAL) under some parents; memsw already
		// forbids swap where the kernel accounts it.
		_ = grpWriteOptional(mem, "memory.swappiness", "0")
	}
	cpu := g.dirs["cpu"]
	if g.spec.CPUs > 0 {
		if err := grpWrite(cpu, "cpu.cfs_period_us", strconv.Itoa(grpPeriod)); err != nil {
			return err
		}
		if err := grpWrite(cpu, "cpu.cfs_quota_us", strconv.FormatInt(grpQuota(g.spec.CPUs), 10)); err != nil {
			return err
		}
	}
	// A kernel without the pids hierarchy has no such limit to set; the
	// memory and CPU limits, which the trial measures, do not need it.
	if pd, ok := g.dirs["pids"]; ok && g.spec.Pids > 0 {
		if err := grpWrite(pd, "pids.max", strconv.FormatInt(g.spec.Pids, 10)); err != nil {
			return err
		}
	}
	if cs, ok := g.dirs["cpuset"]; ok {
		if err := grpCopyCpuset(filepath.Dir(cs), cs); err != nil {
			return err
		}
		if g.spec.CPUSet != "" {
			if err := grpWrite(cs, "cpuset.cpus", g.spec.CPUSet); err != nil {
				avail, _ := grpReadString(filepath.Dir(cs), "cpuset.cpus")
				return fmt.Errorf("cpuset %q refused: this process may use CPUs %s", g.spec.CPUSet, avail)
			}
		}
	} else if g.spec.CPUSet != "" {
		return fmt.Errorf("cpuset %q asked but no cpuset controller is available", g.spec.CPUSet)
	}
	return nil
}

func (g *grpV1) Path() string { return g.dirs["memory"] }

func (g *grpV1) Paths() []string { return append([]string(nil), g.order...) }

func (g *grpV1) AddProc(pid int) error {
	for _, d := range g.order {
		if err := grpWrite(d, "cgroup.procs", strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

func (g *grpV1) Procs() ([]int, error) { return grpReadProcs(g.dirs["memory"]) }

func (g *grpV1) Kill() error {
	// Every hierarchy holds the same processes once AddProc ran, but one
	// that joined only some of them must die too.
	var first error
	for _, d := range g.order {
		if err := grpKillProcs(d, 5*time.Second); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (g *grpV1) Remove() error {
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	return g.removeLocked()
}

func (g *grpV1) removeLocked() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gone {
		return nil
	}
	var first error
	for _, d := range g.order {
		if err := g.m.grpRemove(d, 3*time.Second); err != nil && first == nil {
			first = err
		}
	}
	for _, b := range g.bases {
		g.m.grpRemoveBase(b)
	}
	if first == nil {
		g.gone = true
	}
	return first
}
