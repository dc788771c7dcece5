//go:build linux

package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// On cgroup v2 a cgroup that holds a process cannot hand controllers to
// its children ("no internal processes"); only the hierarchy's root is
// exempt. jvmfit itself sits in its own cgroup, so below anything but the
// root it cannot make limited groups there. A Place is where it makes them
// instead. FindPlace and Manager.Check only read (place_check.go); the
// Manager prepares the place once per process (place_prepare.go); each way
// of finding a place has its own file:
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

// v1Controllers are the hierarchies a v1 trial group joins
// (grpControllersV1) that are mounted here.
func v1Controllers(h Hierarchy) []string {
	var out []string
	for _, c := range []string{"cpu", "cpuacct", "cpuset", "memory", "pids"} {
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

// UserFixes says the error is the user's to fix (the CLI exits 2): a
// layout or a fault of the host, not a failure of jvmfit's.
func (e *PlaceError) UserFixes() bool { return true }

func pidName(pid int) string { return "jvmfit-" + strconv.Itoa(pid) }
