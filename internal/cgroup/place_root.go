//go:build linux

package cgroup

// placeAtRoot: jvmfit sits in the hierarchy's real root, which the "no
// internal processes" rule exempts, so its groups go below it as on v1.
func placeAtRoot(root, own, mount string, pid int) (Place, bool, error) {
	d := readCgDir(own, mount)
	if !d.Root {
		return Place{}, false, nil
	}
	if !d.OffersAll(placeRequired...) {
		return Place{}, false, layoutError(own, mount)
	}
	return Place{Kind: PlaceRoot, Parent: own, Controllers: d.wanted(), enable: []string{own}}, true, nil
}
