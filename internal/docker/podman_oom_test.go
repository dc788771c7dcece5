//go:build linux

package docker_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
)

func TestPodmanOOMKilled(t *testing.T) {
	needPodman(t, filecacheImage)
	s := podmanSandbox(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-oom", Image: filecacheImage, MemoryBytes: 64 * mi, CPUs: 1,
		Args: []string{"--server.port=" + strconv.Itoa(freePort(t))},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	select {
	case <-p.Done():
	case <-time.After(120 * time.Second):
		t.Fatal("filecache still runs after 120 s at 64Mi")
	}
	st, err := podman.Run(context.Background(), nil, "inspect", "--format", "{{.State.ExitCode}} {{.State.OOMKilled}}", p.ID())
	t.Logf("exit %+v; podman inspect: %s %v; counter %d; cgdir %s", p.Exit(), st, err, p.OOMKillsSeen(), p.CgroupDir())
	p.Stop(0)
	if ids := podmanContainers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after Stop: %v", ids)
	}
}
