//go:build linux

package container

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/cleanup"
	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The container backend registers its image reader with trial (an image
// app is planned for its image's JDK, whichever backend runs it), and its
// emergency cleanup (CloseContainers) with internal/cleanup.
func init() {
	trial.UseImages(images{})
	cleanup.Register(CloseContainers)
}

// An image app's trial runs as a container through the Docker engine
// (internal/docker, docs/docker.md). One docker.Sandbox per engine serves
// the whole jvmfit; the first one made sweeps what a killed jvmfit left,
// and CloseContainers removes the containers still running and this
// jvmfit's cgroup sub-tree.

var engines = struct {
	sync.Mutex
	sandboxes map[string]*docker.Sandbox
	live      map[*docker.Process]struct{}
}{sandboxes: map[string]*docker.Sandbox{}, live: map[*docker.Process]struct{}{}}

// containerSandbox is the engine's sandbox, made (and swept) on first use.
func containerSandbox(ctx context.Context, engine string) (*docker.Sandbox, error) {
	engines.Lock()
	defer engines.Unlock()
	if s := engines.sandboxes[engine]; s != nil {
		return s, nil
	}
	// Prepare has chosen the engine (spec.Engine); New checks it answers.
	e := docker.Engine{Bin: engine}
	if engine == "" {
		var err error
		if e, err = docker.Select(ctx, ""); err != nil {
			return nil, err
		}
	}
	s, err := docker.New(ctx, e)
	if err != nil {
		return nil, err
	}
	if _, err := s.Sweep(ctx); err != nil {
		return nil, fmt.Errorf("cannot sweep the containers of earlier jvmfit runs: %w", err)
	}
	engines.sandboxes[engine] = s
	return s, nil
}

// CloseContainers stops and removes every container still running (no
// grace: it is for a second signal and for the end of main) and this
// jvmfit's cgroup sub-tree of each engine.
func CloseContainers() {
	engines.Lock()
	stops := make([]func(), 0, len(engines.live))
	for p := range engines.live {
		stops = append(stops, func() { p.Stop(0) })
	}
	ss := make([]*docker.Sandbox, 0, len(engines.sandboxes))
	for _, s := range engines.sandboxes {
		ss = append(ss, s)
	}
	engines.Unlock()
	cleanup.AtOnce(stops...)
	for _, s := range ss {
		s.Close()
	}
}

// javaWait bounds the search for the container's java process when the
// entrypoint is a script that starts it as a child.
const javaWait = 10 * time.Second

// start runs an image app's launch as a container.
func start(ctx context.Context, c launch, l trial.Launch) (trial.Process, error) {
	s, err := containerSandbox(ctx, c.engine)
	if err != nil {
		return nil, err
	}
	dl := docker.Launch{
		Name: l.Name, Image: c.image, Args: l.Argv, Env: l.Env,
		MemoryBytes: l.MemoryBytes, CPUs: l.CPUs, CPUSet: l.CPUSet, Pids: l.Pids, NoLimits: l.NoLimits,
		Tmpfs: c.tmpfs, User: c.user, Volumes: c.volumes,
		Stdout: l.Stdout, Stderr: l.Stderr,
	}
	if pub := c.publish(l.Port); pub != "" {
		dl.Network, dl.Publish = "bridge", []string{pub}
	}
	p, err := s.Start(ctx, dl)
	if err != nil {
		return nil, err
	}
	engines.Lock()
	engines.live[p] = struct{}{}
	engines.Unlock()
	return dockerProcess{Process: p, java: p.JavaPid(javaWait), jcmd: c.jcmd, s: s}, nil
}

// DockerSandbox runs each trial's app as a container of image through s,
// whatever the Launch's Container says (tests drive the backend with it).
// For such a trial, Launch.Argv holds the arguments appended to the
// image's entrypoint and Launch.Env only the variables to set in the
// container.
func DockerSandbox(s *docker.Sandbox, image string) trial.Sandbox {
	return dockerSandbox{s: s, image: image}
}

type dockerSandbox struct {
	s     *docker.Sandbox
	image string
}

func (d dockerSandbox) Start(ctx context.Context, l trial.Launch) (trial.Process, error) {
	p, err := d.s.Start(ctx, docker.Launch{
		Name: l.Name, Image: d.image, Args: l.Argv, Env: l.Env,
		MemoryBytes: l.MemoryBytes, CPUs: l.CPUs, CPUSet: l.CPUSet, Pids: l.Pids, NoLimits: l.NoLimits,
		Stdout: l.Stdout, Stderr: l.Stderr,
	})
	if err != nil {
		return nil, err
	}
	return dockerProcess{Process: p, java: p.JavaPid(javaWait)}, nil
}

// dockerProcess is a container as a trial Process. Pid is its java
// process as the host sees it (the probes read /proc/<pid>).
type dockerProcess struct {
	*docker.Process
	java int
	jcmd string          // jcmd inside the image; "" = next to the JVM's java
	s    *docker.Sandbox // whose sub-tree goes with the last container; nil = the caller's
}

func (p dockerProcess) Pid() int { return p.java }

func (p dockerProcess) Stop(grace time.Duration) trial.Exit {
	e := p.Process.Stop(grace)
	engines.Lock()
	delete(engines.live, p.Process)
	idle := len(engines.live) == 0
	engines.Unlock()
	// As a plain trial's group goes with it, the last container takes
	// this jvmfit's jvmfit-<pid>/docker cgroups with it (the engine makes
	// them again for the next one).
	if idle && p.s != nil {
		p.s.Close()
	}
	return trial.Exit{Code: e.Code, Signal: e.Signal, OOMKilled: e.OOMKilled}
}

// Stalled never closes: the container's memory cgroup is not watched for
// a stall (the cgroup sandbox's detector reads a group it created). An
// OOM kill is still seen; a stall waits out the trial's timeouts.
func (p dockerProcess) Stalled() <-chan struct{} { return nil }

// Stall is empty: no stall is detected for a container (see Stalled).
func (p dockerProcess) Stall() string { return "" }

// NMT runs the image's jcmd in the container against its JVM (numbered
// in the container's pid namespace), since the host's attach socket path
// does not reach a JVM in another pid namespace.
func (p dockerProcess) NMT(ctx context.Context) (map[string]trial.NMT, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := p.jcmd1(ctx, "VM.native_memory", "summary")
	if err != nil {
		return nil, err
	}
	return probe.ParseNMT(out)
}

// Sample samples a container as a plain trial: its cgroups for memory,
// working set, CPU and throttling, its java process's /proc for RSS, PSS,
// threads and fds, and its hsperfdata through /proc/<pid>/root. NMT over
// time is not sampled (the attach socket is in the container's
// namespace): the summary at the end is read with jcmd, and so is the
// full GC a profile's trial asks for at its end (fullGCAtEnd).
func (p dockerProcess) Sample(ctx context.Context, fullGCAtEnd bool) trial.Sampling {
	t := probe.Target{Pid: p.java, PerfData: docker.PerfDataPath(p.java), CgroupDir: p.CgroupDir()}
	t.CgroupStats = func() (probe.CgroupStats, error) {
		st, err := p.Stats()
		return probe.CgroupStats{
			Usage: st.Usage, Peak: st.Peak, RSS: st.RSS, Cache: st.Cache,
			CPUUsage: st.CPUUsage, NrThrottled: st.NrThrottled, Throttled: st.Throttled,
		}, err
	}
	s := trial.ProbeSampling(ctx, t)
	if !fullGCAtEnd {
		return s
	}
	return fullGCFirst{Sampling: s, ctx: ctx, p: p}
}

// fullGCFirst runs a full GC in the container before the sampler's last
// sample, so that the live set is measured: the probe's own GC.run attaches
// by the host's pid, which a JVM in another pid namespace does not answer.
type fullGCFirst struct {
	trial.Sampling
	ctx context.Context
	p   dockerProcess
}

func (f fullGCFirst) Stop(wall time.Duration) ([]probe.Sample, trial.Summary) {
	if f.ctx.Err() == nil {
		ctx, cancel := context.WithTimeout(f.ctx, 20*time.Second)
		f.p.jcmd1(ctx, "GC.run") // an app already dead has no GC to run
		cancel()
	}
	return f.Sampling.Stop(wall)
}

// jcmd1 runs the image's jcmd in the container against its JVM (numbered
// in the container's pid namespace).
func (p dockerProcess) jcmd1(ctx context.Context, command ...string) (string, error) {
	jcmd := p.jcmd
	if jcmd == "" {
		jcmd = "jcmd"
	}
	out, err := p.Exec(ctx, append([]string{jcmd, strconv.Itoa(docker.NSPid(p.java))}, command...)...)
	if err != nil && (strings.Contains(err.Error(), "executable file not found") || strings.Contains(err.Error(), "no such file")) {
		return "", fmt.Errorf("the image has no %s: NMT is read with the image's own jcmd, in the container", jcmd)
	}
	return out, err
}
