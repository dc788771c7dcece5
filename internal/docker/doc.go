// Package docker runs the app under test as a container image, with Docker
// (or, through the same commands, Podman): a sandbox whose Start and Process
// have the method set of trial.Sandbox and trial.Process, a Sweep for the
// containers a killed jvmfit left, and the image's own JDK for the planner.
//
// It drives the `docker` command line (os/exec), not the Engine API's Go
// client. The client resolves from the module proxy (github.com/docker/docker
// v28.5.2+incompatible) but has no go.mod of its own, so every module it
// imports (OpenTelemetry, containerd's errdefs, go-connections, the OCI image
// spec, distribution/reference...) would have to be pinned by hand in ours
// and carried in the static binary, for the handful of calls used here
// (create, start, inspect, wait, logs, stop, rm, ps, cp). The CLI also
// speaks to Podman with the same arguments (`--engine podman` later), honours
// DOCKER_HOST and the user's contexts exactly as their own `docker` does,
// and its cost (a few ms per call) is small next to a JVM's start.
//
// Limits and the cgroup: the container gets --memory and --memory-swap
// equal (Docker's default for memory+swap is twice the limit), --cpus,
// --cpuset-cpus, and --cgroup-parent in jvmfit's own sub-tree, spelled for
// the engine's cgroup driver (parent.go: jvmfit-<pid>/docker below jvmfit's
// own memory cgroup or, on v2, its place, for cgroupfs; the slice
// jvmfit-<pid>.slice for systemd), so jvmfit still touches only its own
// sub-tree.
// Every container carries its run's owner (a random id recorded beside
// the database, internal/owner), process and creation time: Sweep removes
// only its own owner's containers whose process is gone, or, past
// --sweep-stale, anyone's. Its pid label (jvmfit.pid) is for people.
package docker
