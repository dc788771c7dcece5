//go:build linux

package docker_test

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/docker"
)

// BenchmarkEngineOverhead compares what each engine adds to a trial, in
// the same run: Start (create, start, inspect, follow the output) and
// Stop(0) (stop, the exit read, rm) of filecache's container, killed while
// its JVM starts. Docker is the reference; read podman's figure as a ratio
// to it.
func BenchmarkEngineOverhead(b *testing.B) {
	need(b, filecacheImage)
	needPodman(b, filecacheImage)
	for _, e := range []docker.Engine{docker.Default(), podman} {
		b.Run(e.Bin, func(b *testing.B) {
			s, err := docker.New(context.Background(), e)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for b.Loop() {
				p, err := s.Start(context.Background(), docker.Launch{
					Name: "overhead", Image: filecacheImage, MemoryBytes: 256 * mi, CPUs: 1, Network: "none",
				})
				if err != nil {
					b.Fatal(err)
				}
				p.Stop(0)
				if err := p.StopErr(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
