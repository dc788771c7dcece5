//go:build linux

package docker_test

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// BenchmarkTrialOverhead is what the Docker backend adds to each trial:
// Start (create, start, inspect, follow the output) and Stop (stop, rm) of
// a container whose JVM stays up (PauseAtExit), so the JVM's own start and
// exit do not count. Compare with internal/sandbox's BenchmarkStartStop.
func BenchmarkTrialOverhead(b *testing.B) {
	need(b, jdk17Image)
	s, err := docker.New(context.Background(), docker.Default())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		p, err := s.Start(context.Background(), docker.Launch{
			Name: "overhead", Image: jdk17Image, MemoryBytes: 128 * mi, CPUs: 1,
			Args: []string{"java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PauseAtExit", "-version"},
		})
		if err != nil {
			b.Fatal(err)
		}
		p.Stop(0)
		if err := p.StopErr(); err != nil {
			b.Fatal(err)
		}
	}
}
