//go:build linux

package sandbox

import (
	"context"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// BenchmarkStartStop is the sandbox's own cost per trial: make the group,
// start `true` inside, reap it, remove the group.
func BenchmarkStartStop(b *testing.B) {
	for _, noLimits := range []bool{false, true} {
		name := "cgroup"
		if noLimits {
			name = "no-limits"
		}
		b.Run(name, func(b *testing.B) {
			if !noLimits {
				prereq.Root(b)
			}
			for i := 0; i < b.N; i++ {
				p, err := Start(context.Background(), Spec{Name: "bench", Argv: []string{"true"}, NoLimits: noLimits,
					Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
				if err != nil {
					b.Fatal(err)
				}
				<-p.Done()
				p.Stop(0)
				if err := p.StopErr(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
