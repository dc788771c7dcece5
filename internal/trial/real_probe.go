//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// samplePeriod is the "about every 250 ms".
const samplePeriod = 250 * time.Millisecond

type realProber struct{}

func (realProber) Start(ctx context.Context, p Process) Sampling {
	t := probe.Target{Pid: p.Pid()}
	if rp, ok := p.(realProcess); ok && rp.p.CgroupPath() != "" {
		t.CgroupStats = func() (probe.CgroupStats, error) {
			st, err := rp.p.Stats()
			return probe.CgroupStats{
				Usage: st.Usage, Peak: st.Peak, RSS: st.RSS, Cache: st.Cache,
				CPUUsage: st.CPUUsage, NrThrottled: st.NrThrottled, Throttled: st.Throttled,
			}, err
		}
	}
	return realSampling{probe.Start(ctx, t, samplePeriod)}
}

func (realProber) NMT(ctx context.Context, jcmd string, pid int) (map[string]NMT, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return probe.NMT(ctx, jcmd, pid)
}

type realSampling struct{ s *probe.Sampler }

func (r realSampling) Stop(wall time.Duration) ([]probe.Sample, Summary) {
	series := r.s.Stop()
	return series, probe.Summarise(series, wall)
}
