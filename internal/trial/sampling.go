//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// SamplePeriod is the "about every 250 ms".
const SamplePeriod = 250 * time.Millisecond

type realSampling struct{ s *probe.Sampler }

func (r realSampling) Stop(wall time.Duration) ([]probe.Sample, Summary) {
	series := r.s.Stop()
	return series, probe.Summarise(series, wall)
}

// ProbeSampling is a probe sampler as a trial's Sampling, sampling every
// SamplePeriod: what a backend's Prober starts.
func ProbeSampling(ctx context.Context, t probe.Target) Sampling {
	return realSampling{probe.Start(ctx, t, SamplePeriod)}
}

// Last is the latest sample taken (tests read the sampler mid-trial).
func (r realSampling) Last() probe.Sample { return r.s.Last() }
