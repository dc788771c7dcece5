//go:build linux

package docker_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// podman is the engine these tests drive: Podman, with its own storage.
var podman = docker.Engine{Bin: "podman"}

// needPodman fails t unless podman runs containers here, then builds (or
// finds, through their inputs label) the test images in podman's storage.
func needPodman(t testing.TB, refs ...string) {
	t.Helper()
	if _, err := exec.LookPath("podman"); err != nil {
		prereq.Fail(t, "podman (the podman command)", prereq.Installer)
	}
	images.Lock()
	defer images.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, ref := range refs {
		key := "podman " + ref
		if images.built[key] {
			continue
		}
		var err error
		switch ref {
		case jdk17Image:
			prereq.Java(t, image.JDK17+"/bin/java")
			_, err = image.JDKBase(ctx, podman, image.JDK17, ref)
		case jdk25Image:
			prereq.Java(t, image.JDK25+"/bin/java")
			_, err = image.JDKBase(ctx, podman, image.JDK25, ref)
		case filecacheImage:
			_, f, _, _ := runtime.Caller(0)
			jar := filepath.Join(filepath.Dir(f), "..", "..", "workloads", "filecache", "target", "filecache.jar")
			prereq.Built(t, jar)
			if _, err = image.JDKBase(ctx, podman, image.JDK17, jdk17Image); err == nil {
				_, err = image.App(ctx, podman, jdk17Image, jar, ref)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		images.built[key] = true
	}
}

func podmanSandbox(t *testing.T) *docker.Sandbox {
	t.Helper()
	prereq.Root(t)
	s, err := docker.New(context.Background(), podman)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// podmanContainers lists the ids of podman's containers labelled with pid.
func podmanContainers(t *testing.T, pid int) []string {
	t.Helper()
	out, err := podman.Run(context.Background(), nil, "ps", "--all", "--quiet",
		"--filter", "label="+docker.LabelPid+"="+strconv.Itoa(pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(out)
}

// podmanCgroupsLeft lists the cgroup directories of container id left in
// any hierarchy below jvmfit's sub-tree t (podman names them libpod-<id>).
func podmanCgroupsLeft(t *testing.T, tree docker.Tree, id string) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(filepath.Dir(tree.Mount), "*", tree.Parent, "libpod-"+id))
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// podmanMajor is the major version of the podman command.
func podmanMajor(t *testing.T) int {
	t.Helper()
	v, err := podman.Run(context.Background(), nil, "version", "--format", "{{.Client.Version}}")
	if err != nil {
		t.Fatal(err)
	}
	major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil {
		t.Fatalf("podman version %q: %v", v, err)
	}
	return major
}

// deadPid is the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}
