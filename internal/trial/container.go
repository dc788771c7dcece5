package trial

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// ContainerLaunch is how an image app's container is run, besides the
// trial's limits: the engine, the image and the descriptor's container
// settings, with the app's port published on loopback or the host's
// network shared.
type ContainerLaunch struct {
	Engine  string // docker or podman
	Image   string
	User    string
	Tmpfs   []string // nil = /tmp
	Volumes []string
	// Publish is 127.0.0.1:HOST:CONTAINER when the app listens on a port
	// of its own in the container; empty = the host's network.
	Publish string
	// Jcmd is the jcmd inside the image (next to its java), which reads
	// NMT from inside the container's pid namespace.
	Jcmd string
}

// container is the trial's ContainerLaunch, nil for a host app.
func (t *trialRun) container() *ContainerLaunch {
	if t.app.Image == "" {
		return nil
	}
	var c app.Container
	if t.app.Container != nil {
		c = *t.app.Container
	}
	cl := &ContainerLaunch{Engine: t.spec.Engine, Image: t.app.Image, User: c.User, Tmpfs: c.Tmpfs, Volumes: c.Volumes}
	if c.Port > 0 {
		cl.Publish = "127.0.0.1:" + strconv.Itoa(t.launch.Port) + ":" + strconv.Itoa(c.Port)
	}
	if java := imageJavaPath(t.spec); java != "" {
		cl.Jcmd = filepath.Join(filepath.Dir(java), "jcmd")
	}
	return cl
}

// nmtReader is a process that reads its JVM's NMT summary itself: a
// container, whose JVM is reached with the image's own jcmd.
type nmtReader interface {
	NMT(ctx context.Context) (map[string]NMT, error)
}

// nmt reads the NMT summary of the live app.
func (t *trialRun) nmt(ctx context.Context) (map[string]NMT, error) {
	if r, ok := t.p.(nmtReader); ok {
		return r.NMT(ctx)
	}
	return t.d.Prober.NMT(ctx, probe.JcmdFor(t.spec.Java), t.p.Pid())
}

// imageCommandLine echoes an image trial as the docker run a user would
// paste (the cgroup parent and labels left out): limits, network, the
// environment set in the container (JAVA_TOOL_OPTIONS without jvmfit's own
// -XX:+PrintFlagsFinal), the image and its arguments.
func imageCommandLine(spec Spec, c *ContainerLaunch, l app.Launch) string {
	words := []string{c.Engine, "run", "--rm"}
	if !spec.NoLimits {
		m := strconv.FormatInt(spec.MemoryBytes, 10)
		words = append(words, "--memory", m, "--memory-swap", m)
		if spec.CPUs > 0 {
			words = append(words, "--cpus", strconv.FormatFloat(spec.CPUs, 'f', -1, 64))
		}
		if spec.CPUSet != "" {
			words = append(words, "--cpuset-cpus", spec.CPUSet)
		}
	}
	if c.Publish != "" {
		words = append(words, "--publish", c.Publish)
	} else {
		words = append(words, "--network", "host")
	}
	for _, kv := range l.Env {
		if v, ok := strings.CutPrefix(kv, "JAVA_TOOL_OPTIONS="); ok {
			v = strings.TrimSpace(strings.ReplaceAll(" "+v+" ", " "+flagsOption+" ", " "))
			if v == "" {
				continue
			}
			kv = "JAVA_TOOL_OPTIONS=" + v
		}
		words = append(words, "--env", plan.ShellQuote(kv))
	}
	words = append(words, c.Image)
	for _, a := range l.Argv {
		words = append(words, plan.ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// ImageJava names the java inside an image as a spec records it, in
// docker cp's CONTAINER:PATH style: "NAME[:TAG]:/opt/jdk/bin/java".
func ImageJava(image, path string) string { return image + ":" + path }

// imageJavaPath is the path in the image of a spec's java ("" if the spec
// is not an image's).
func imageJavaPath(spec Spec) string {
	if spec.Image == "" {
		return ""
	}
	return strings.TrimPrefix(spec.Java, spec.Image+":")
}
