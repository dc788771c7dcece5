//go:build linux

package cgroup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Systemd is a running systemd that starts delegated transient units.
type Systemd interface {
	// StartScope starts the transient scope unit in slice with
	// Delegate=yes, holding pid, and waits for its job to end.
	StartScope(ctx context.Context, unit, slice string, pid int) error
	// StopUnit stops a unit (a slice the container engine made for
	// jvmfit) and waits for its job to end.
	StopUnit(ctx context.Context, unit string) error
	// Version is what systemd answers for its version: proof it is there.
	Version() (string, error)
	Close()
}

// SystemdConnect connects to the systemd running the host under root:
// nil and no error when there is none (not booted with systemd, or a
// fixture root). Tests replace it with a fake.
var SystemdConnect = func(root string) (Systemd, error) {
	if root != "/" {
		return nil, nil
	}
	// sd_booted(3): systemd runs the host when this directory exists.
	if fi, err := os.Stat("/run/systemd/system"); err != nil || !fi.IsDir() {
		return nil, nil
	}
	return DialSystemd(5 * time.Second)
}

// placeSystemd: systemd runs the host and answers on D-Bus, so jvmfit asks
// it for a scope of its own with Delegate=yes (as runc's and podman's
// systemd drivers do) in jvmfit.slice, and then moves itself into a leaf
// of that scope so that the scope may delegate.
func placeSystemd(root, own, mount string, pid int) (Place, bool, error) {
	s, err := SystemdConnect(root)
	if err != nil || s == nil {
		return Place{}, false, nil
	}
	defer s.Close()
	if _, err := s.Version(); err != nil {
		return Place{}, false, nil
	}
	top := readCgDir(mount, mount)
	if !top.OffersAll(placeRequired...) {
		return Place{}, false, nil
	}
	unit := pidName(pid) + ".scope"
	dir := filepath.Join(mount, sliceName, unit)
	return Place{Kind: PlaceSystemd, Parent: dir, Controllers: top.wanted(), scope: unit, slice: sliceName}, true, nil
}

// startScope asks systemd for the scope, finds where it put this process
// (systemd names the cgroup; the namespace may shift the path), moves
// jvmfit into the scope's leaf and lets the scope delegate.
func (m *Manager) startScope(p *Place) ([]string, error) {
	s, err := SystemdConnect(m.root)
	if err != nil || s == nil {
		return nil, fmt.Errorf("systemd stopped answering on D-Bus: %v", err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := s.StartScope(ctx, p.scope, p.slice, p.pid); err != nil {
		return nil, fmt.Errorf("systemd refused the scope %s with Delegate=yes: %v", p.scope, err)
	}
	h, err := ReadHierarchy(m.root)
	if err != nil {
		return nil, err
	}
	dir := h.Dir("")
	if filepath.Base(dir) != p.scope {
		return nil, fmt.Errorf("systemd started %s but this process is in %s", p.scope, dir)
	}
	m.h = h
	p.Parent = dir
	p.enable = []string{dir}
	if _, err := m.moveToLeaf(dir); err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("systemd made the scope %s (Delegate=yes) in %s and jvmfit moved into %s", p.scope, p.slice, filepath.Join(dir, leafName))}, nil
}
