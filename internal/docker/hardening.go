package docker

import (
	"strconv"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// hardening is what every trial container gets, with limits or without
// (they guard the host, they are not what a trial measures):
//   - a pids limit, so a runaway fork loop stops inside the container;
//   - no CAP_NET_RAW, which Docker grants by default and which lets a
//     process forge packets: a container trial shares the host's network
//     (--network host) and a service's JVM never needs raw sockets;
//   - no-new-privileges, so a setuid binary in the image cannot raise the
//     app above the user it runs as.
//
// Podman takes the same flags.
func hardening(l Launch) []string {
	pids := l.Pids
	if pids <= 0 {
		pids = cgroup.DefaultPids
	}
	return []string{
		"--pids-limit", strconv.FormatInt(pids, 10),
		"--cap-drop", "NET_RAW",
		"--security-opt", "no-new-privileges",
	}
}
