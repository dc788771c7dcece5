package docker

import (
	"context"
	"fmt"
)

// The engines' cgroup drivers: cgroupfs takes --cgroup-parent as a path,
// systemd as a slice name (parent.go).
const (
	DriverCgroupfs = "cgroupfs"
	DriverSystemd  = "systemd"
)

// CgroupDriver asks the engine which cgroup driver it runs its containers
// with: docker info's CgroupDriver, podman info's Host.CgroupManager.
func (e Engine) CgroupDriver(ctx context.Context) (string, error) {
	format := "{{.CgroupDriver}}"
	if e.IsPodman() {
		format = "{{.Host.CgroupManager}}"
	}
	out, err := e.Run(ctx, nil, "info", "--format", format)
	if err != nil {
		return "", err
	}
	switch out {
	case DriverCgroupfs, DriverSystemd:
		return out, nil
	}
	return "", fmt.Errorf("%s reports the cgroup driver %q, which jvmfit does not know", e.Bin, out)
}
