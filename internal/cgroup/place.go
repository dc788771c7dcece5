//go:build linux

package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// On cgroup v2 a cgroup that holds a process cannot hand controllers to
// its children ("no internal processes"); only the hierarchy's root is
// exempt. jvmfit itself sits in its own cgroup, so below anything but the
// root it cannot make limited groups there. A Place is where it makes them
// instead; FindPlace only reads, Prepare makes the changes (once per
// process), and each way of finding a place has its own file:
//
//	place_root.go       jvmfit at the hierarchy's root: as on v1, below itself
//	place_nsroot.go     at a cgroup namespace's root holding processes (a
//	                    container): move them into a leaf, then delegate
//	place_systemd.go    systemd answers on D-Bus: a transient scope with
//	                    Delegate=yes, as runc's and podman's drivers ask for
//	place_ancestor.go   the nearest ancestor that holds no process and offers
//	                    the controllers: a sibling sub-tree jvmfit.slice
//	place_layout.go     what a directory offers, enables and holds; the one
//	                    line naming the layout when nothing works

// The kinds of Place.
const (
	PlaceOwn       = "own cgroup (v1)"
	PlaceRoot      = "hierarchy root"
	PlaceNamespace = "cgroup namespace root"
	PlaceSystemd   = "systemd scope"
	PlaceAncestor  = "ancestor"
)

// sliceName is the shared sub-tree beside the user's cgroups (the
// ancestor placement) and the systemd slice of jvmfit's scopes.
const sliceName = "jvmfit.slice"

// leafName is the leaf child the processes of a cgroup move into so that
// the cgroup may delegate controllers, as docker-in-docker entrypoints do.
const leafName = "init"

// Place is where this jvmfit's trial groups go: Parent/jvmfit-<pid>/<name>.
type Place struct {
	Kind string
	// Parent is the directory jvmfit-<pid> is made in.
	Parent string
	// Mount is the hierarchy's mount point (what this process sees of it).
	Mount string
	// Controllers are those the trial groups will have.
	Controllers []string
	// Shared is a directory jvmfit makes and shares with other jvmfits
	// (jvmfit.slice), removed by whoever leaves it empty; "" if none.
	Shared string
	// enable lists the directories, top down, whose subtree_control gets
	// the controllers before Shared and jvmfit-<pid> are made.
	enable []string
	// leaf: the processes of leafFrom move to leafFrom/init first.
	leafFrom string
	// scope is the systemd unit asked for (PlaceSystemd).
	scope, slice string
	pid          int
}

func (p Place) String() string {
	return fmt.Sprintf("%s: %s (controllers %s)", p.Kind, filepath.Join(p.Parent, "jvmfit-<pid>"), strings.Join(p.Controllers, " "))
}

// Has says whether the trial groups get controller c.
func (p Place) Has(c string) bool {
	for _, x := range p.Controllers {
		if x == c {
			return true
		}
	}
	return false
}

// FindPlace says where jvmfit would make its trial groups, changing
// nothing. On v1 that is below its own cgroups. On v2 it tries, in order,
// the hierarchy root, a namespace root, systemd, an ancestor; an error is
// a *PlaceError naming the layout and the command that fixes it.
func FindPlace(root string) (Place, error) {
	h, err := ReadHierarchy(root)
	if err != nil {
		return Place{}, &PlaceError{Msg: fmt.Sprintf("cannot find this process's cgroup (%v); use --no-limits", err)}
	}
	return findPlace(root, h, os.Getpid())
}

func findPlace(root string, h Hierarchy, pid int) (Place, error) {
	if h.Version != 2 {
		return Place{Kind: PlaceOwn, Parent: h.Dir("memory"), Mount: h.Mounts["memory"], Controllers: v1Controllers(h), pid: pid}, nil
	}
	own, mount := h.Dir(""), h.Mounts[""]
	for _, find := range []func(root, own, mount string, pid int) (Place, bool, error){
		placeAtRoot, placeAtNamespace, placeSystemd, placeAtAncestor,
	} {
		p, ok, err := find(root, own, mount, pid)
		if err != nil {
			return Place{}, err
		}
		if ok {
			p.Mount, p.pid = mount, pid
			return p, nil
		}
	}
	return Place{}, layoutError(own, mount)
}

func v1Controllers(h Hierarchy) []string {
	var out []string
	for _, c := range []string{"cpu", "cpuset", "memory", "pids"} {
		if h.Dir(c) != "" {
			out = append(out, c)
		}
	}
	return out
}

// PlaceError is a layout or fault jvmfit cannot work around: the user
// fixes it (exit 2). Msg is one line.
type PlaceError struct{ Msg string }

func (e *PlaceError) Error() string { return e.Msg }

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

func pidName(pid int) string { return "jvmfit-" + strconv.Itoa(pid) }
