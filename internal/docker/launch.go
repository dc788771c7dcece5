package docker

import (
	"fmt"
	"io"
	"strconv"
)

// Launch is one container to run: the image, what the trial adds to it,
// and the limits. It mirrors trial.Launch, with the image in place of the
// command line.
type Launch struct {
	Name        string   // part of the container's name; made unique
	Image       string   // NAME[:TAG]
	Args        []string // appended to the image's entrypoint
	Env         []string // KEY=VALUE; JVM options go in JAVA_TOOL_OPTIONS
	MemoryBytes int64
	CPUs        float64
	CPUSet      string
	Pids        int64 // --pids-limit; 0 = cgroup.DefaultPids
	NoLimits    bool
	Tmpfs       []string // mount points of tmpfs; nil = /tmp
	Network     string   // "" = host (the app's port is reachable on loopback)
	Publish     []string // -p values, e.g. 127.0.0.1:8081:8080 (with a network other than host)
	User        string   // --user; "" = the image's own
	Volumes     []string // -v values, HOST:CONTAINER[:ro]
	Stdout      io.Writer
	Stderr      io.Writer
}

// Labels on every container jvmfit creates.
const (
	LabelPid     = "jvmfit.pid"     // the creating jvmfit's pid, for people and cgroup names
	LabelTrial   = "jvmfit.trial"   // the trial's name, for people reading `docker ps`
	LabelOwner   = "jvmfit.owner"   // whose run it is (owner.ID): Sweep's key
	LabelProcess = "jvmfit.process" // the run's process (owner.Proc): is the run gone
	LabelCreated = "jvmfit.created" // Unix seconds: --sweep-stale's age
)

// createArgs is the `docker create` command line for l, as container name
// under cgroup parent for jvmfit pid.
func createArgs(l Launch, name, parent string, pid int) ([]string, error) {
	if l.Image == "" {
		return nil, fmt.Errorf("no image to run: give the app's image as NAME[:TAG]")
	}
	a := []string{"create", "--name", name,
		"--label", LabelPid + "=" + strconv.Itoa(pid),
		"--label", LabelTrial + "=" + l.Name,
		"--cgroup-parent", parent,
		"--network", or(l.Network, "host"),
		// The JVM's own SIGTERM handling decides the exit, not docker's.
		"--stop-signal", "SIGTERM",
	}
	a = append(a, hardening(l)...)
	if !l.NoLimits {
		if l.MemoryBytes <= 0 {
			return nil, fmt.Errorf("memory limit %d is not positive: give --memory, or run without limits", l.MemoryBytes)
		}
		m := strconv.FormatInt(l.MemoryBytes, 10)
		// Without --memory-swap Docker allows memory+swap of twice the
		// limit, so an app could outgrow it on a host with swap.
		a = append(a, "--memory", m, "--memory-swap", m)
		if l.CPUs > 0 {
			a = append(a, "--cpus", strconv.FormatFloat(l.CPUs, 'f', -1, 64))
		}
		if l.CPUSet != "" {
			a = append(a, "--cpuset-cpus", l.CPUSet)
		}
	}
	tmpfs := l.Tmpfs
	if tmpfs == nil {
		tmpfs = []string{"/tmp"}
	}
	for _, t := range tmpfs {
		a = append(a, "--tmpfs", t)
	}
	for _, p := range l.Publish {
		a = append(a, "--publish", p)
	}
	if l.User != "" {
		a = append(a, "--user", l.User)
	}
	for _, v := range l.Volumes {
		a = append(a, "--volume", v)
	}
	for _, e := range l.Env {
		a = append(a, "--env", e)
	}
	a = append(a, l.Image)
	return append(a, l.Args...), nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
