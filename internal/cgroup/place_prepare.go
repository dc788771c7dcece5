//go:build linux

package cgroup

// Preparing the place: once per process, the changes it needs outside
// jvmfit-<pid> (a leaf for a namespace's processes, a systemd scope,
// controllers enabled on the way down), said once on stderr.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// placed is the one Place of this process for a filesystem root: moving
// processes or asking systemd twice would be wrong.
var placed struct {
	sync.Mutex
	by map[string]*Place
}

// PlaceNotice says, once per process, what jvmfit changed outside its own
// sub-tree. Tests replace it.
var PlaceNotice = func(msg string) { fmt.Fprintln(os.Stderr, "jvmfit: "+msg) }

// cachedPlace is the place this process prepared under root, or nil.
func cachedPlace(root string) *Place {
	placed.Lock()
	defer placed.Unlock()
	return placed.by[root]
}

// prepared finds and prepares this process's place under m's root once.
func (m *Manager) prepared() (*Place, error) {
	placed.Lock()
	defer placed.Unlock()
	if p := placed.by[m.root]; p != nil {
		return p, nil
	}
	p, err := findPlace(m.root, m.h, m.pid)
	if err != nil {
		return nil, err
	}
	changes, err := m.prepare(&p)
	if err != nil && p.Kind == PlaceSystemd {
		// systemd answered but would not give a delegated scope (polkit,
		// an old version): the ancestor's sub-tree still works.
		own, mount := m.h.Dir(""), m.h.Mounts[""]
		if alt, ok, aerr := placeAtAncestor(m.root, own, mount, m.pid); aerr == nil && ok {
			alt.Mount, alt.pid = mount, m.pid
			note := fmt.Sprintf("%v; using %s instead", err, alt.Parent)
			p = alt
			changes, err = m.prepare(&p)
			changes = append([]string{note}, changes...)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		PlaceNotice("cgroup v2: " + strings.Join(changes, "; "))
	}
	if placed.by == nil {
		placed.by = map[string]*Place{}
	}
	placed.by[m.root] = &p
	return &p, nil
}

// prepare makes the changes p needs outside jvmfit-<pid>, returning what it
// changed in words.
func (m *Manager) prepare(p *Place) ([]string, error) {
	if err := m.writable(p); err != nil {
		return nil, err
	}
	var changes []string
	switch {
	case p.leafFrom != "":
		moved, err := m.moveToLeaf(p.leafFrom)
		if err != nil {
			return nil, err
		}
		changes = append(changes, fmt.Sprintf("moved %d process(es) of %s into %s", moved, p.leafFrom, leafName))
	case p.scope != "":
		c, err := m.startScope(p)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c...)
	}
	for _, d := range p.enable {
		added, err := m.enable(d, p.Controllers)
		if err != nil {
			return nil, err
		}
		if len(added) > 0 {
			changes = append(changes, fmt.Sprintf("enabled %s in %s", strings.Join(added, " "), filepath.Join(d, "cgroup.subtree_control")))
		}
	}
	return changes, nil
}

// ensureShared makes the shared directory (jvmfit.slice) and delegates to
// its children; another jvmfit may be removing it at the same moment, so
// the caller retries on ENOENT.
func (m *Manager) ensureShared(p *Place) error {
	if p.Shared == "" {
		return nil
	}
	if _, err := os.Stat(p.Shared); err != nil {
		if err := m.k.Mkdir(p.Shared); err != nil && !os.IsExist(err) {
			return placeFault("create", p.Shared, err)
		}
	}
	_, err := m.enable(p.Shared, p.Controllers)
	return err
}
