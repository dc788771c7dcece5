//go:build linux

// Package container is the backend that runs an image app's trial as a
// container through Docker or Podman (internal/docker): the image's own
// entrypoint with the trial's limits, JVM options in JAVA_TOOL_OPTIONS,
// sampled from the container's cgroups and its java's /proc, NMT read with
// the image's jcmd, and removed on every path. It also reads an image's
// JDK for the planner (image.go), which Kubernetes trials use too.
package container

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Backend runs trial.Run's steps with a Sandbox that starts the app's
// image as a container and a Prober that samples it (trial.Backend).
type Backend struct{}

// Run runs one prepared trial of an image app.
func (Backend) Run(ctx context.Context, spec trial.Spec, a *trial.App, o trial.Options) (*trial.Result, error) {
	if a.Image == "" {
		return nil, errors.New("the container backend runs an image app: give --image or image: in the descriptor")
	}
	return trial.Run(ctx, spec, a, o.Deps(sandbox{launchOf(spec, a)}, &prober{}))
}

// launch is how an image app's container is run, besides the trial's
// limits: the engine, the image and the descriptor's container settings,
// with the app's port published on loopback or the host's network shared.
type launch struct {
	engine  string // docker or podman ("" = detect)
	image   string
	user    string
	tmpfs   []string // nil = /tmp
	volumes []string
	port    int // the app's port in the container; 0 = the host's network
	// jcmd is the jcmd inside the image (next to its java), which reads
	// NMT from inside the container's pid namespace.
	jcmd string
}

func launchOf(spec trial.Spec, a *app.App) launch {
	var c app.Container
	if a.Container != nil {
		c = *a.Container
	}
	l := launch{engine: spec.Engine, image: a.Image, user: c.User, tmpfs: c.Tmpfs, volumes: c.Volumes, port: c.Port}
	if java := strings.TrimPrefix(spec.Java, spec.Image+":"); spec.Image != "" && java != "" {
		l.jcmd = filepath.Join(filepath.Dir(java), "jcmd")
	}
	return l
}

// publish is 127.0.0.1:HOST:CONTAINER when the app listens on a port of
// its own in the container; "" = the host's network.
func (c launch) publish(hostPort int) string {
	if c.port <= 0 {
		return ""
	}
	return "127.0.0.1:" + strconv.Itoa(hostPort) + ":" + strconv.Itoa(c.port)
}

// sandbox starts the trial's container (trial.Sandbox).
type sandbox struct{ c launch }

func (s sandbox) Start(ctx context.Context, l trial.Launch) (trial.Process, error) {
	return start(ctx, s.c, l)
}

// CommandLine echoes an image trial as the docker run a user would paste
// (the cgroup parent and labels left out): limits, network, the
// environment set in the container (JAVA_TOOL_OPTIONS without jvmfit's own
// -XX:+PrintFlagsFinal), the image and its arguments (trial.CommandLiner).
func (s sandbox) CommandLine(l trial.Launch) string {
	words := []string{s.c.engine, "run", "--rm"}
	if !l.NoLimits {
		m := strconv.FormatInt(l.MemoryBytes, 10)
		words = append(words, "--memory", m, "--memory-swap", m)
		if l.CPUs > 0 {
			words = append(words, "--cpus", strconv.FormatFloat(l.CPUs, 'f', -1, 64))
		}
		if l.CPUSet != "" {
			words = append(words, "--cpuset-cpus", l.CPUSet)
		}
	}
	if p := s.c.publish(l.Port); p != "" {
		words = append(words, "--publish", p)
	} else {
		words = append(words, "--network", "host")
	}
	for _, kv := range l.Env {
		if v, ok := strings.CutPrefix(kv, "JAVA_TOOL_OPTIONS="); ok {
			v = strings.TrimSpace(strings.ReplaceAll(" "+v+" ", " "+trial.FlagsOption+" ", " "))
			if v == "" {
				continue
			}
			kv = "JAVA_TOOL_OPTIONS=" + v
		}
		words = append(words, "--env", plan.ShellQuote(kv))
	}
	words = append(words, s.c.image)
	for _, a := range l.Argv {
		words = append(words, plan.ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// prober samples the trial's container and reads its NMT with the image's
// jcmd, in the container (trial.Prober); one per trial, since NMT needs
// the container Start sampled.
type prober struct{ p *dockerProcess }

func (pr *prober) Start(ctx context.Context, p trial.Process, spec trial.Spec) trial.Sampling {
	if dp, ok := p.(dockerProcess); ok {
		pr.p = &dp
		return dp.Sample(ctx, spec.FullGCAtEnd)
	}
	return trial.ProbeSampling(ctx, probe.Target{Pid: p.Pid(), FullGCAtEnd: spec.FullGCAtEnd})
}

func (pr *prober) NMT(ctx context.Context, _ string, _ int) (map[string]trial.NMT, error) {
	if pr.p == nil {
		return nil, errors.New("no container to read NMT in")
	}
	return pr.p.NMT(ctx)
}
