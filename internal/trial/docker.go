//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// DockerSandbox runs each trial's app as a container of image through the
// Docker backend (internal/docker, docs/docker.md), in place of the cgroup
// sandbox. For such a trial, Launch.Argv holds the arguments appended to
// the image's entrypoint and Launch.Env only the variables to set in the
// container (the app's own and JAVA_TOOL_OPTIONS, which carries the JVM
// options), never the host's environment, which would override the
// image's PATH and JAVA_HOME. Launch.Dir does not apply. Not wired to a
// command yet: the descriptor's image key is the next step (issue 16).
func DockerSandbox(s *docker.Sandbox, image string) Sandbox {
	return dockerSandbox{s: s, image: image}
}

type dockerSandbox struct {
	s     *docker.Sandbox
	image string
}

func (d dockerSandbox) Start(ctx context.Context, l Launch) (Process, error) {
	p, err := d.s.Start(ctx, docker.Launch{
		Name: l.Name, Image: d.image, Args: l.Argv, Env: l.Env,
		MemoryBytes: l.MemoryBytes, CPUs: l.CPUs, CPUSet: l.CPUSet, NoLimits: l.NoLimits,
		Stdout: l.Stdout, Stderr: l.Stderr,
	})
	if err != nil {
		return nil, err
	}
	return dockerProcess{p}, nil
}

// dockerProcess is a container as a trial Process; all but Stop's result
// type are the same methods.
type dockerProcess struct{ *docker.Process }

func (p dockerProcess) Stop(grace time.Duration) Exit {
	e := p.Process.Stop(grace)
	return Exit{Code: e.Code, Signal: e.Signal, OOMKilled: e.OOMKilled}
}

// Stalled never closes: the container's memory cgroup is not yet watched
// for a stall (the cgroup sandbox's detector reads a group it created; the
// container's is Docker's). An OOM kill is still seen; a stall waits out
// the trial's timeouts as it did before stall detection.
func (p dockerProcess) Stalled() <-chan struct{} { return nil }

// Stall is empty: no stall is detected for a container (see Stalled).
func (p dockerProcess) Stall() string { return "" }
