//go:build linux

package trial

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// SamplePeriod is the "about every 250 ms".
const SamplePeriod = 250 * time.Millisecond

// realProber samples with the real probe. NMT is read through the series
// whenever the JVM runs with it (--nmt); Spec.FullGCAtEnd forces a full GC
// at the end of the run so that the live set is measured.
type realProber struct{}

func (rp realProber) Start(ctx context.Context, p Process, spec Spec) Sampling {
	if sp, ok := p.(SelfSampled); ok {
		return sp.Sample(ctx, spec.FullGCAtEnd)
	}
	t := probe.Target{Pid: p.Pid(), NMT: true, FullGCAtEnd: spec.FullGCAtEnd}
	if rp, ok := p.(realProcess); ok && rp.p.CgroupPath() != "" {
		t.CgroupDir = rp.p.CgroupPath()
		t.CgroupStats = func() (probe.CgroupStats, error) {
			st, err := rp.p.Stats()
			return probe.CgroupStats{
				Usage: st.Usage, Peak: st.Peak, RSS: st.RSS, Cache: st.Cache,
				CPUUsage: st.CPUUsage, NrThrottled: st.NrThrottled, Throttled: st.Throttled,
			}, err
		}
	}
	return ProbeSampling(ctx, t)
}

// NMT reads the summary over the attach socket (milliseconds), and with a
// jcmd process (half a second of CPU) only if that fails.
func (realProber) NMT(ctx context.Context, jcmd string, pid int) (map[string]NMT, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	actx, acancel := context.WithTimeout(ctx, 5*time.Second)
	text, err := probe.Jcmd(actx, "", pid, "VM.native_memory summary")
	acancel()
	if err == nil {
		return probe.ParseNMT(text)
	}
	return probe.NMT(ctx, jcmd, pid)
}

type realSampling struct{ s *probe.Sampler }

func (r realSampling) Stop(wall time.Duration) ([]probe.Sample, Summary) {
	series := r.s.Stop()
	return series, probe.Summarise(series, wall)
}
