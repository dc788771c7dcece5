//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// placeAtNamespace: jvmfit sits at the top of what it sees of the
// hierarchy, and that top is not the real root: a container's cgroup
// namespace (Docker, a Kubernetes pod). Its processes, jvmfit's own
// included, move into a leaf child; then the top may delegate.
func placeAtNamespace(root, own, mount string, pid int) (Place, bool, error) {
	if own != mount {
		return Place{}, false, nil
	}
	d := readCgDir(own, mount)
	if d.Root {
		return Place{}, false, nil
	}
	if !d.OffersAll(placeRequired...) {
		return Place{}, false, layoutError(own, mount)
	}
	p := Place{Kind: PlaceNamespace, Parent: own, Controllers: d.wanted(), enable: []string{own}}
	if d.Procs > 0 {
		p.leafFrom = own
	}
	return p, true, nil
}

// moveToLeaf moves every process of dir into dir/init, over and over while
// processes fork in, so that dir holds none; it returns how many moved.
func (m *Manager) moveToLeaf(dir string) (int, error) {
	leaf := filepath.Join(dir, leafName)
	if err := m.k.Mkdir(leaf); err != nil && !errors.Is(err, os.ErrExist) {
		return 0, placeFault("create", leaf, err)
	}
	moved := 0
	for round := 0; round < 10; round++ {
		pids, err := grpReadProcs(dir)
		if err != nil {
			return moved, fmt.Errorf("cannot read %s: %w", filepath.Join(dir, "cgroup.procs"), err)
		}
		if len(pids) == 0 {
			return moved, nil
		}
		for _, pid := range pids {
			err := m.k.Write(leaf, "cgroup.procs", strconv.Itoa(pid))
			switch {
			case err == nil:
				moved++
			case errors.Is(err, syscall.ESRCH):
				// exited meanwhile
			default:
				return moved, placeFault("move process "+strconv.Itoa(pid)+" into", leaf, err)
			}
		}
	}
	return moved, &PlaceError{Msg: fmt.Sprintf("processes keep appearing in %s while jvmfit moves them into %s; stop what forks there, or use --no-limits", dir, leaf)}
}
