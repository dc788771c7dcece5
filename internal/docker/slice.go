//go:build linux

package docker

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// stopSlice asks systemd to stop jvmfit's slice, the systemd driver's
// --cgroup-parent, once its containers are gone: systemd made the slice
// (the engine named it), so systemd removes it and its cgroup. Without
// systemd on D-Bus there is nothing to stop.
func stopSlice(unit string) {
	s, err := cgroup.SystemdConnect("/")
	if err != nil || s == nil {
		return
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = s.StopUnit(ctx, unit)
}
