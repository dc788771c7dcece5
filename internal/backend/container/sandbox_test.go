//go:build linux

package container

import (
	"context"
	"github.com/jvmfit/jvmfit/internal/trial"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

// TestDockerSandboxAsTrialSandbox: the Docker backend serves as the
// trial's Sandbox; an OOM kill of the container reaches the trial's Exit.
func TestDockerSandboxAsTrialSandbox(t *testing.T) {
	prereq.Docker(t)
	prereq.Root(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const ref = "jvmfit-test/jdk17:latest"
	if _, err := image.JDKBase(ctx, docker.Default(), image.JDK17, ref); err != nil {
		t.Fatal(err)
	}
	ds, err := docker.New(ctx, docker.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var sb trial.Sandbox = DockerSandbox(ds, ref)
	var out strings.Builder
	// A heap that must be touched beyond the limit: the kernel kills it.
	p, err := sb.Start(ctx, trial.Launch{
		Name: "trial-docker-oom", MemoryBytes: 64 * size.MiB, CPUs: 1,
		Argv:   []string{"java", "-XX:+AlwaysPreTouch", "-Xms128m", "-Xmx128m", "-version"},
		Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(2 * time.Minute):
		t.Fatal("the container still runs after 2 minutes")
	}
	if e := p.Stop(time.Second); !e.OOMKilled || e.Signal != "SIGKILL" {
		t.Errorf("trial exit %+v, want OOM-killed; output:\n%s", e, out.String())
	}
	if peak, err := p.MemoryPeak(); err != nil || peak < 60*size.MiB {
		t.Errorf("peak %d, %v; want about the 64 MiB limit", peak, err)
	}
}
