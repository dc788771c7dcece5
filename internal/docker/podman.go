package docker

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Podman takes Docker's arguments for everything the sandbox does (create,
// start, inspect, wait, logs, stop, rm, ps, cp, import, build), with these
// differences, each handled here or by the install step (docs/docker.md,
// "Podman"):
//
//   - Podman 4 never sets State.OOMKilled (fixed in Podman 5): the verdict
//     comes from exit 137 plus the container cgroup's oom_kill counter,
//     which Process samples for every engine (process.go, exitFor), the
//     cgroup's OOM notifications, which outlive it (podman_oomevents.go),
//     or the kernel log's record of the kill (oomkmsg.go).
//   - It names a container's cgroup libpod-<id> (cgroupName).
//   - Its ps has no {{.Label "key"}}, only the .Labels map (psLabel).
//   - With the cgroupfs manager it puts every container's conmon in a
//     cgroup of its own, <cgroup-parent>/conmon, which it never removes;
//     --cgroups no-conmon leaves conmon in jvmfit's own cgroup instead, so
//     that jvmfit's sub-tree holds only the containers (createFlags).
//   - It raises RLIMIT_NOFILE and RLIMIT_NPROC of every container to
//     1048576 unless containers.conf sets default_ulimits, which fails
//     where root lacks CAP_SYS_RESOURCE (explain says so).
//   - Its images live in its own storage (internal/image builds them there
//     through the same engine, or copies them from Docker's).

// IsPodman is true when the engine's command is podman.
//
// The podman-docker package's `docker` (a script running podman) is taken
// for Docker: give the engine as podman.
func (e Engine) IsPodman() bool { return filepath.Base(e.Bin) == "podman" }

// createFlags are the flags of `create` that only this engine needs.
func (e Engine) createFlags() []string {
	if e.IsPodman() {
		return []string{"--cgroups", "no-conmon"}
	}
	return nil
}

// withCreateFlags puts the engine's own flags into a create command line
// (createArgs's), after "create" and so before the image.
func (e Engine) withCreateFlags(args []string) []string {
	f := e.createFlags()
	if len(f) == 0 || len(args) == 0 || args[0] != "create" {
		return args
	}
	return slices.Insert(slices.Clone(args), 1, f...)
}

// cgroupName is the name the engine gives a container's cgroup below the
// cgroup parent: the sandbox's guess until the container's process says
// where it is (and if that process is already gone, e.g. OOM-killed).
func (e Engine) cgroupName(id, driver string) string {
	name := id
	if e.IsPodman() {
		name = "libpod-" + id
	} else if driver == DriverSystemd {
		name = "docker-" + id
	}
	if driver == DriverSystemd {
		name += ".scope"
	}
	return name
}

// psLabel is the `ps --format` field holding a container's label key.
func (e Engine) psLabel(key string) string {
	if e.IsPodman() {
		return `{{index .Labels "` + key + `"}}`
	}
	return `{{.Label "` + key + `"}}`
}

// installHint says how to get the engine's command.
func (e Engine) installHint() string {
	if e.IsPodman() {
		return "install podman (bash .ci/install test does)"
	}
	return "install docker.io (bash .ci/install does)"
}

// daemonHint says what to do when the engine does not answer.
func (e Engine) daemonHint() string {
	if e.IsPodman() {
		return "check `podman info`; for a remote podman set CONTAINER_HOST"
	}
	return "start dockerd, or point DOCKER_HOST at yours"
}

// errRlimits is what Podman's runtime says when it may not raise a
// container's limits (root without CAP_SYS_RESOURCE).
const errRlimits = "error setting rlimit"

// explain adds the fix to an engine error that has a known one, and
// returns other errors as they are.
func (e Engine) explain(err error) error {
	if err == nil || !e.IsPodman() || !strings.Contains(err.Error(), errRlimits) {
		return err
	}
	return fmt.Errorf("%w: podman may not raise the container's open-file and process limits here "+
		"(no CAP_SYS_RESOURCE): set default_ulimits in containers.conf, as bash .ci/install test does", err)
}

// podmanWorkDir is the working directory of a podman Sandbox's commands,
// for the files conmon writes into the directory it inherits ("oom" when
// a container is OOM-killed), which would otherwise land in the user's.
// Close removes it; Sweep removes a dead jvmfit's. Its name is random
// after the pid: a name known in advance could be made first by another
// user (a symlink), and conmon, as root, would write through it.
func podmanWorkDir(pid int) (string, error) {
	dir, err := os.MkdirTemp("", podmanDirPrefix+strconv.Itoa(pid)+"-")
	if err != nil {
		return "", fmt.Errorf("cannot make podman's working directory: %w", err)
	}
	return dir, nil
}

// podmanDirPrefix starts the name of a podman working directory:
// jvmfit-podman-<pid>-<random>.
const podmanDirPrefix = "jvmfit-podman-"
