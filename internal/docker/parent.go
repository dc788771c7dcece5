//go:build linux

package docker

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// Tree is where this jvmfit's containers' cgroups go: inside jvmfit's own
// sub-tree, so that jvmfit still changes nothing of anyone else's and a
// killed jvmfit's leftovers are found by its pid.
//
//	cgroupfs driver, v1   <own memory cgroup>/jvmfit-<pid>/docker
//	cgroupfs driver, v2   <place>/jvmfit-<pid>/docker (internal/cgroup's
//	                      placement: the root, a namespace root, a systemd
//	                      scope or an ancestor's jvmfit.slice)
//	systemd driver        the slice jvmfit-<pid>.slice, which systemd puts
//	                      at /jvmfit.slice/jvmfit-<pid>.slice
type Tree struct {
	// Parent is the --cgroup-parent value: a path from the hierarchy's
	// root (cgroupfs) or a slice name (systemd).
	Parent string
	// Path is the sub-tree's path from the hierarchy's root; "" means
	// Parent (cgroupfs).
	Path string
	// Mount is the memory hierarchy's mount point (v1) or the unified one.
	Mount string
	// Version is the cgroup version (0 reads as 1).
	Version int
	// Driver is the engine's cgroup driver ("" reads as cgroupfs).
	Driver string
}

// Dir is the memory cgroup directory of the container with this cgroup
// name (Engine.cgroupName).
func (t Tree) Dir(name string) string { return filepath.Join(t.Mount, t.path(), name) }

func (t Tree) path() string {
	if t.Path != "" {
		return t.Path
	}
	return t.Parent
}

func (t Tree) systemd() bool { return t.Driver == DriverSystemd }

// holder is the directory (from the hierarchy's root) whose children are
// the jvmfit-<pid> sub-trees, and entry the child of one pid.
func (t Tree) holder() string {
	if t.systemd() {
		return filepath.Dir(t.path())
	}
	return filepath.Dir(filepath.Dir(t.path()))
}

func (t Tree) entry(pid int) string {
	if t.systemd() {
		return "jvmfit-" + strconv.Itoa(pid) + ".slice"
	}
	return "jvmfit-" + strconv.Itoa(pid)
}

// roots are the hierarchies the engine makes the sub-tree in: on v1 every
// mounted one (the named systemd and unified ones included), on v2 the one.
func (t Tree) roots() []string {
	if t.Version == 2 {
		return []string{t.Mount}
	}
	roots, _ := filepath.Glob(filepath.Join(filepath.Dir(t.Mount), "*"))
	return roots
}

// slicePath is where systemd puts a slice: each dash-separated prefix is a
// parent slice ("jvmfit-42.slice" is /jvmfit.slice/jvmfit-42.slice).
func slicePath(slice string) string {
	name := strings.TrimSuffix(slice, ".slice")
	p := "/"
	for i := range name {
		if name[i] == '-' {
			p = filepath.Join(p, name[:i]+".slice")
		}
	}
	return filepath.Join(p, slice)
}

// newTree is the tree for a cgroup version, mount and driver. base is
// jvmfit-<pid> for the cgroupfs driver, an absolute directory below mount.
func newTree(version int, mount, base, driver string, pid int) (Tree, error) {
	t := Tree{Mount: mount, Version: version, Driver: driver}
	switch driver {
	case DriverSystemd:
		t.Parent = "jvmfit-" + strconv.Itoa(pid) + ".slice"
		t.Path = slicePath(t.Parent)
	case DriverCgroupfs, "":
		rel, ok := strings.CutPrefix(base, mount)
		if !ok || mount == "" {
			return Tree{}, fmt.Errorf("jvmfit's cgroup %s is not below the hierarchy's mount %s", base, mount)
		}
		t.Parent = filepath.Join("/", rel, "docker")
	default:
		return Tree{}, fmt.Errorf("the engine's cgroup driver %q is neither cgroupfs nor systemd", driver)
	}
	return t, nil
}

// OwnTree finds the sub-tree this process's containers go in, for the
// engine's cgroup driver. On v2 with cgroupfs it makes jvmfit-<pid> in its
// place first (cgroup.Manager.PrepareBase), with the controllers handed
// down, so that the engine's runtime can delegate to the containers.
func OwnTree(pid int, driver string) (Tree, error) {
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		return Tree{}, fmt.Errorf("cannot find jvmfit's own cgroup: %w", err)
	}
	dir, mount := h.Dir("memory"), h.Mounts["memory"]
	if dir == "" || mount == "" {
		return Tree{}, fmt.Errorf("no memory cgroup controller is mounted: the container backend needs it for the limits")
	}
	base := filepath.Join(dir, "jvmfit-"+strconv.Itoa(pid))
	if h.Version == 2 && driver != DriverSystemd {
		m, err := cgroup.NewManager("/")
		if err != nil {
			return Tree{}, err
		}
		if base, err = m.PrepareBase(); err != nil {
			return Tree{}, err
		}
	}
	return newTree(h.Version, mount, base, driver, pid)
}

// removeOwn drops the holder of the sub-trees when jvmfit made it and it
// is empty (jvmfit.slice); rmdir fails while anyone's sub-tree is there.
func (t Tree) removeOwn(root string) {
	if h := t.holder(); filepath.Base(h) == "jvmfit.slice" {
		_ = os.Remove(filepath.Join(root, h))
	}
}
