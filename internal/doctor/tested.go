package doctor

import (
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/docker"
)

// EnginesOnV2Tested and SystemdOnV2Tested say whether the project's tests
// run real trials on a cgroup v2 kernel through Docker and Podman with the
// cgroupfs driver (e2e/cgroupv2's docker and podman layouts, on request:
// docs/cgroupv2-engines.md), and in a transient scope a real systemd
// granted over D-Bus (a systemd layout, not built). The systemd driver on
// v2 needs that systemd, so it stays untested with the second.
const (
	EnginesOnV2Tested = true
	SystemdOnV2Tested = false
)

// testedPlaces are the kinds of host a real trial ran on in the project's
// tests: a cgroup v1 host (make test's machine), and the layouts of the v2
// guest (docs/cgroupv2.md): a systemd-like leaf and an ancestor enabling
// only memory (both placed at an ancestor), a container's namespace root,
// and the hierarchy's root (on request).
var testedPlaces = map[string]string{
	cgroup.PlaceOwn:       "make test, on the project's cgroup v1 machine",
	cgroup.PlaceAncestor:  "e2e/cgroupv2, the systemd-like and host layouts",
	cgroup.PlaceNamespace: "e2e/cgroupv2, the container layout",
	cgroup.PlaceRoot:      "e2e/cgroupv2, the root layout (on request)",
}

// placeTested says whether a real trial ran on a host where the trial
// groups go where p says, and in which test.
func placeTested(p cgroup.Place) string {
	if p.Kind == cgroup.PlaceSystemd {
		if SystemdOnV2Tested {
			return "yes: a real systemd's transient scope in e2e/cgroupv2, the systemd layout"
		}
		return "no: a transient scope from a real systemd is not yet run in the project's tests (its D-Bus path is tested against a fake systemd)"
	}
	if where, ok := testedPlaces[p.Kind]; ok {
		return "yes: " + where
	}
	return "no: this placement (" + p.Kind + ") is not run in the project's tests"
}

// engineTested says whether a real container trial ran through engine
// with driver on a host of this cgroup version.
func engineTested(version int, engine, driver string) string {
	if version != 2 {
		if driver == docker.DriverSystemd {
			return "not run in the project's tests with the systemd driver on cgroup v1"
		}
		return "real trials in make test (cgroup v1)"
	}
	if driver == docker.DriverSystemd && !SystemdOnV2Tested {
		if EnginesOnV2Tested {
			return "not yet run on cgroup v2 with the systemd driver in the project's tests (the cgroupfs driver is: e2e/cgroupv2, the " + engine + " layout)"
		}
		return "not yet run on cgroup v2 in the project's tests (argument building and fixtures only)"
	}
	if EnginesOnV2Tested {
		return "real trials on cgroup v2 in e2e/cgroupv2, the " + engine + " layout (on request)"
	}
	return "not yet run on cgroup v2 in the project's tests (argument building and fixtures only)"
}
