//go:build linux

package cgroup

import "path/filepath"

// placeAtAncestor: jvmfit sits in a leaf that holds processes (a session
// scope, a shell's cgroup) or below a parent that enables too little (a
// host whose parent enables only memory). The nearest ancestor that holds
// no process and offers memory and cpu may delegate: jvmfit makes a
// sibling sub-tree there, jvmfit.slice/jvmfit-<pid>, enabling the
// controllers on the way down.
func placeAtAncestor(root, own, mount string, pid int) (Place, bool, error) {
	for dir := filepath.Dir(own); len(dir) >= len(mount); dir = filepath.Dir(dir) {
		d := readCgDir(dir, mount)
		if d.Usable() && d.OffersAll(placeRequired...) {
			shared := filepath.Join(dir, sliceName)
			return Place{Kind: PlaceAncestor, Parent: shared, Shared: shared, Controllers: d.wanted(), enable: []string{dir}}, true, nil
		}
		if dir == mount {
			break
		}
	}
	return Place{}, false, nil
}
