//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// cgDir is what placement reads of one v2 directory.
type cgDir struct {
	Path    string
	Offers  []string // cgroup.controllers: what its parent hands it
	Enables []string // cgroup.subtree_control: what it hands its children
	Procs   int      // processes in cgroup.procs
	// Root: the hierarchy's real root, exempt from "no internal
	// processes". The root has no cgroup.type file; a namespace's root,
	// which looks like a root from inside, has one.
	Root bool
}

func readCgDir(dir, mount string) cgDir {
	d := cgDir{Path: dir}
	s, _ := grpReadString(dir, "cgroup.controllers")
	d.Offers = strings.Fields(s)
	s, _ = grpReadString(dir, "cgroup.subtree_control")
	d.Enables = strings.Fields(s)
	if pids, err := grpReadProcs(dir); err == nil {
		d.Procs = len(pids)
	}
	if dir == mount {
		_, err := os.Stat(filepath.Join(dir, "cgroup.type"))
		d.Root = os.IsNotExist(err)
	}
	return d
}

// Usable: the kernel lets this directory hand controllers to children.
func (d cgDir) Usable() bool { return d.Root || d.Procs == 0 }

// OffersAll says whether every controller in cs is offered here.
func (d cgDir) OffersAll(cs ...string) bool {
	for _, c := range cs {
		if !contains(d.Offers, c) {
			return false
		}
	}
	return true
}

// wanted are the controllers of d that trial groups get, in the order the
// kernel accepts them in cgroup.subtree_control.
func (d cgDir) wanted() []string {
	var out []string
	for _, c := range grpWantedV2 {
		if contains(d.Offers, c) {
			out = append(out, c)
		}
	}
	return out
}

// placeRequired are the controllers without which a trial has no limits.
var placeRequired = []string{"memory", "cpu"}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// layoutError names the layout when no placement works: the cgroup, what
// it offers, what its parent enables, whether it holds processes, and the
// one command that fixes it.
func layoutError(own, mount string) error {
	d := readCgDir(own, mount)
	parent := "none (it is the top of the visible hierarchy)"
	if own != mount {
		parent = fmt.Sprintf("%q", strings.Join(readCgDir(filepath.Dir(own), mount).Enables, " "))
	}
	top := readCgDir(mount, mount)
	fix := "run jvmfit from a cgroup of its own whose parent offers memory and cpu, e.g. systemd-run --scope -p Delegate=yes jvmfit ..., or use --no-limits"
	switch {
	case top.Root && !contains(top.Offers, "memory"):
		fix = "the kernel offers no memory controller: boot with cgroup_enable=memory, or use --no-limits"
	case top.Root && !contains(top.Offers, "cpu"):
		fix = "the kernel offers no cpu controller: use a kernel built with CONFIG_CGROUP_SCHED, or use --no-limits"
	case !top.OffersAll(placeRequired...):
		fix = fmt.Sprintf("this container's cgroup is handed only %q: start it with the memory and cpu controllers delegated (docker run --cgroupns=private ...), or use --no-limits", strings.Join(top.Offers, " "))
	}
	return &PlaceError{Msg: fmt.Sprintf("no place for trial cgroups: %s offers %q, its parent enables %s, it holds %d process(es), and no ancestor without processes offers memory and cpu; fix: %s",
		own, strings.Join(d.Offers, " "), parent, d.Procs, fix)}
}

// placeFault turns a failed mkdir or write during placement into the one
// line the user acts on: a read-only cgroupfs, an unwritable parent.
func placeFault(op, path string, err error) error {
	switch {
	case errors.Is(err, syscall.EROFS):
		return &PlaceError{Msg: fmt.Sprintf("cannot %s %s: the cgroup filesystem is read-only (a container without a writable cgroupns?); fix: mount -o remount,rw %s, run the container with --cgroupns=private --privileged, or use --no-limits", op, path, mountOf(path))}
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return &PlaceError{Msg: fmt.Sprintf("cannot %s %s: permission denied; fix: run jvmfit as root or in a delegated cgroup (systemd-run --user --scope -p Delegate=yes jvmfit ...), or use --no-limits", op, path)}
	}
	return fmt.Errorf("cannot %s %s: %w", op, path, err)
}

// mountOf guesses the cgroupfs mount of path for the remount advice.
func mountOf(path string) string {
	if i := strings.Index(path, "/sys/fs/cgroup"); i >= 0 {
		return path[:i+len("/sys/fs/cgroup")]
	}
	return filepath.Dir(path)
}

// enable turns on in dir's cgroup.subtree_control those of cs that dir
// offers and has not enabled yet, returning what it added.
func (m *Manager) enable(dir string, cs []string) ([]string, error) {
	d := readCgDir(dir, "")
	var add []string
	for _, c := range cs {
		if contains(d.Offers, c) && !contains(d.Enables, c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil, nil
	}
	err := m.k.Write(dir, "cgroup.subtree_control", strings.Join(add, " "))
	if errors.Is(err, syscall.EBUSY) {
		return nil, &PlaceError{Msg: fmt.Sprintf("cannot enable %s in %s: it holds processes (cgroup v2 allows no process in a cgroup that delegates); fix: move them into a leaf (mkdir %s/%s; echo PID > %s/%s/cgroup.procs), or use --no-limits",
			strings.Join(add, " "), dir, dir, leafName, dir, leafName)}
	}
	if err != nil {
		return nil, placeFault("enable controllers in", filepath.Join(dir, "cgroup.subtree_control"), err)
	}
	return add, nil
}
