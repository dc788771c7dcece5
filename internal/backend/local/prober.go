//go:build linux

package local

import (
	"context"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Prober samples with the real probe: the host's /proc of the app's pid
// and, for a process this package started, its cgroup's files. NMT is read
// through the series whenever the JVM runs with it (--nmt);
// Spec.FullGCAtEnd forces a full GC at the end of the run so that the live
// set is measured.
type Prober struct{}

// Start samples p every trial.SamplePeriod (trial.Prober).
func (Prober) Start(ctx context.Context, p trial.Process, spec trial.Spec) trial.Sampling {
	t := probe.Target{Pid: p.Pid(), NMT: true, FullGCAtEnd: spec.FullGCAtEnd}
	if rp, ok := p.(process); ok && rp.p.CgroupPath() != "" {
		t.CgroupDir = rp.p.CgroupPath()
		t.CgroupStats = func() (probe.CgroupStats, error) {
			st, err := rp.p.Stats()
			return probe.CgroupStats{
				Usage: st.Usage, Peak: st.Peak, RSS: st.RSS, Cache: st.Cache,
				CPUUsage: st.CPUUsage, NrThrottled: st.NrThrottled, Throttled: st.Throttled,
			}, err
		}
	}
	return trial.ProbeSampling(ctx, t)
}

// NMT reads the summary over the attach socket (milliseconds), and with a
// jcmd process (half a second of CPU) only if that fails.
func (Prober) NMT(ctx context.Context, jcmd string, pid int) (map[string]trial.NMT, error) {
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
