//go:build linux

package docker

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// Tree is where this jvmfit's containers' cgroups go: jvmfit-<pid>/docker
// below jvmfit's own memory cgroup, the sub-tree it already owns for its
// plain trials (internal/cgroup).
type Tree struct {
	Parent string // the --cgroup-parent value: a path from the hierarchy's root
	Mount  string // the memory hierarchy's mount point
}

// Dir is the memory cgroup directory of the container with this id.
func (t Tree) Dir(id string) string { return filepath.Join(t.Mount, t.Parent, id) }

// OwnTree finds this process's memory cgroup (cgroup v1) and the sub-tree
// its containers go in.
func OwnTree(pid int) (Tree, error) {
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		return Tree{}, fmt.Errorf("cannot find jvmfit's own cgroup: %w", err)
	}
	if h.Version != 1 {
		return Tree{}, fmt.Errorf("the Docker backend needs cgroup v1 here (found v%d)", h.Version)
	}
	dir, mount := h.Dir("memory"), h.Mounts["memory"]
	if dir == "" || mount == "" {
		return Tree{}, fmt.Errorf("no memory cgroup controller is mounted: the Docker backend needs it for the limits")
	}
	rel := strings.TrimPrefix(dir, mount)
	return Tree{Parent: filepath.Join("/", rel, "jvmfit-"+strconv.Itoa(pid), "docker"), Mount: mount}, nil
}
