//go:build linux

package cgroup

import (
	"fmt"
	"path/filepath"
	"strings"
)

// writable checks, before anything changes, that jvmfit may write every
// directory p changes: a read-only cgroupfs or an unwritable parent is
// then refused with nothing made or moved.
func (m *Manager) writable(p *Place) error {
	var paths []string
	for _, d := range p.enable {
		paths = append(paths, filepath.Join(d, "cgroup.subtree_control"))
	}
	if p.leafFrom != "" {
		paths = append(paths, p.leafFrom)
	}
	if p.Shared != "" {
		paths = append(paths, filepath.Dir(p.Shared))
	} else if p.scope == "" {
		paths = append(paths, p.Parent)
	}
	for _, path := range paths {
		if err := m.k.Writable(path); err != nil {
			return placeFault("write in", path, err)
		}
	}
	return nil
}

// Check says, changing nothing, whether a group with spec s can be made:
// the place, the controllers s needs, and the right to write there. Every
// refusal is a *PlaceError.
func (m *Manager) Check(s Spec) error {
	if err := s.grpValidate(); err != nil {
		return &PlaceError{Msg: err.Error()}
	}
	if m.version != 2 {
		return nil // NewManager checked v1
	}
	p := m.place
	if p == nil {
		p = cachedPlace(m.root)
	}
	if p == nil {
		found, err := findPlace(m.root, m.h, m.pid)
		if err != nil {
			return err
		}
		if err := m.writable(&found); err != nil {
			return err
		}
		p = &found
	}
	if s.CPUSet != "" && !p.Has("cpuset") {
		return &PlaceError{Msg: fmt.Sprintf("cpuset %q asked, but the kernel offers no cpuset controller at %s (controllers %q); drop --cpuset", s.CPUSet, p.Parent, strings.Join(p.Controllers, " "))}
	}
	return nil
}
