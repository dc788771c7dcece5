//go:build linux

package probe

import (
	"context"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf"
)

// Target is the process (and optionally its cgroup) to sample.
type Target struct {
	Pid int
	// CgroupStats reads the trial's cgroup; nil when running without limits.
	CgroupStats func() (CgroupStats, error)

	// ProcRoot is procfs's mount point; "" means /proc. Tests point it at
	// fixtures.
	ProcRoot string
	// PerfData is the JVM's hsperfdata file; "" means hsperf.PathFor(Pid).
	PerfData string
	// PSSEvery reads smaps_rollup on every Nth sample only; 0 means
	// DefaultPSSEvery, 1 every sample. The kernel walks every resident page
	// for it, holding the target's mmap lock: 0.4 ms for a small JVM, 6-8 ms
	// with 512 MiB of heap touched (the rest of a sample takes 0.15 ms).
	PSSEvery int
}

// DefaultPSSEvery makes PSS a once-a-second reading at the usual 250 ms.
const DefaultPSSEvery = 4

// Sampler reads a Target at a fixed period until stopped.
type Sampler struct {
	t      Target
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once

	mu     sync.Mutex
	series []Sample
	last   Sample
	errs   map[string]error // last error per source, for diagnostics

	proc    *procReader
	t0      time.Time     // wall time of Start
	ageAtT0 time.Duration // process age at Start
	n       int
}

// Start samples t now and then every period until Stop or ctx ends.
func Start(ctx context.Context, t Target, every time.Duration) *Sampler {
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	if t.PerfData == "" {
		t.PerfData = hsperf.PathFor(t.Pid)
	}
	if t.PSSEvery <= 0 {
		t.PSSEvery = DefaultPSSEvery
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Sampler{t: t, cancel: cancel, done: make(chan struct{}), errs: map[string]error{}, t0: time.Now()}
	if p, err := newProcReader(t.ProcRoot, t.Pid); err == nil {
		s.proc = p
		s.ageAtT0, _ = p.age(t.ProcRoot)
	} else {
		s.errs["proc"] = err
	}
	s.take()
	go s.loop(ctx, every)
	return s
}

func (s *Sampler) loop(ctx context.Context, every time.Duration) {
	defer close(s.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.take()
		}
	}
}

// Stop ends sampling, takes a last sample if the process is still there,
// and returns the series. It may be called more than once.
func (s *Sampler) Stop() []Sample {
	s.once.Do(func() {
		s.cancel()
		<-s.done
		s.take()
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sample(nil), s.series...)
}

// Last is the most recent sample (zero before the first).
func (s *Sampler) Last() Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Errors gives the last error of each source that failed at least once
// ("proc", "cgroup", "hsperf"): a JVM run with -XX:-UsePerfData, for example,
// has no JVM fields and an "hsperf" error here.
func (s *Sampler) Errors() map[string]error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]error, len(s.errs))
	for k, v := range s.errs {
		out[k] = v
	}
	return out
}

// take records one sample. A sample is kept only while the process exists:
// after it exits the JVM's counters are gone and /proc says nothing.
func (s *Sampler) take() {
	now := time.Now()
	smp := Sample{At: s.ageAtT0 + now.Sub(s.t0)}
	errs := map[string]error{}

	alive := false
	if s.proc != nil {
		withPSS := s.n%s.t.PSSEvery == 0
		if err := s.proc.read(&smp, withPSS); err != nil {
			errs["proc"] = err
		} else {
			alive = true
			s.n++
		}
	}
	if !alive {
		s.record(errs, nil)
		return
	}
	smp.CPUTime = smp.ProcCPUTime
	if s.t.CgroupStats != nil {
		if cg, err := s.t.CgroupStats(); err != nil {
			errs["cgroup"] = err
		} else {
			fillCgroup(&smp, cg)
		}
	}
	if snap, err := hsperf.ReadFile(s.t.PerfData); err != nil {
		errs["hsperf"] = err
	} else {
		fillJVM(&smp, snap.JVM())
	}
	s.record(errs, &smp)
}

func (s *Sampler) record(errs map[string]error, smp *Sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range errs {
		s.errs[k] = v
	}
	if smp != nil {
		s.series = append(s.series, *smp)
		s.last = *smp
	}
}

func fillCgroup(s *Sample, cg CgroupStats) {
	s.CgroupUsage = cg.Usage
	s.CgroupPeak = cg.Peak
	s.CgroupRSS = cg.RSS
	s.CgroupCache = cg.Cache
	if cg.CPUUsage > 0 {
		// The cgroup's CPU includes every process of the trial.
		s.CPUTime = cg.CPUUsage
	}
	s.NrThrottled = cg.NrThrottled
	s.Throttled = cg.Throttled
}

func fillJVM(s *Sample, j hsperf.JVM) {
	s.HeapUsed = j.HeapUsed
	s.HeapCommitted = j.HeapCommitted
	s.HeapMax = j.HeapMax
	s.YoungUsed, s.YoungCommitted = j.Young.Used, j.Young.Committed
	s.OldUsed, s.OldCommitted = j.Old.Used, j.Old.Committed
	s.MetaspaceUsed, s.MetaspaceCommitted = j.MetaspaceUsed, j.MetaspaceCommitted
	s.ClassSpaceUsed = j.ClassSpaceUsed
	s.YoungGCs, s.OldGCs = j.YoungGCs, j.OldGCs
	s.GCTime = j.GCTime
	s.JavaThreads = int(j.Threads)
	s.Classes = j.ClassesLoaded
}
