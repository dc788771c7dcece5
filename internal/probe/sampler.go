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

	// CgroupDir is the trial group's memory directory (v1: the memory
	// controller's; v2: the group's), read for the working set; "" = none.
	CgroupDir string
	// NMT reads `VM.native_memory summary` and `Compiler.codecache` every
	// NMTEvery (0 = DefaultNMTEvery) once the JVM is up, if it runs with
	// -XX:NativeMemoryTracking=summary or detail (on its command line or in
	// JAVA_TOOL_OPTIONS); a JVM without NMT is left alone. Jcmd is the jcmd
	// to fall back on when the attach socket fails ("" = the one next to
	// the process's executable).
	NMT      bool
	NMTEvery time.Duration
	Jcmd     string
	// FullGCAtEnd makes Stop run GC.run before its last sample, so that
	// the live set after a full GC is measured even if the run had none.
	FullGCAtEnd bool
}

// DefaultPSSEvery makes PSS a once-a-second reading at the usual 250 ms.
const DefaultPSSEvery = 4

// Sampler reads a Target at a fixed period until stopped.
type Sampler struct {
	t      Target
	parent context.Context // Start's: once it ends, Stop asks the JVM nothing more
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once

	mu     sync.Mutex
	series []Sample
	last   Sample
	errs   map[string]error // last error per source, for diagnostics

	nmt     nmtState
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
	if t.NMTEvery <= 0 {
		t.NMTEvery = DefaultNMTEvery
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	s := &Sampler{t: t, parent: parent, cancel: cancel, done: make(chan struct{}), errs: map[string]error{}, t0: time.Now()}
	s.nmt.done = make(chan struct{})
	if p, err := newProcReader(t.ProcRoot, t.Pid); err == nil {
		s.proc = p
		s.ageAtT0, _ = p.age(t.ProcRoot)
	} else {
		s.errs["proc"] = err
	}
	s.take()
	go s.loop(ctx, every)
	if t.NMT {
		go s.nmtLoop(ctx, t.NMTEvery)
	} else {
		close(s.nmt.done)
	}
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
		<-s.nmt.done
		s.finish()
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
			if s.n%smapsEvery == 0 {
				if m, err := readSmaps(s.t.ProcRoot, s.t.Pid); err != nil {
					errs["smaps"] = err
				} else {
					smp.ArchiveRSS, smp.ArchiveAnon, smp.MappedFileRSS = m.Archive, m.ArchiveAnon, m.Mapped
				}
			}
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
			s.readWorkingSet(&smp, errs)
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
		if r := s.nmt.pending; r != nil {
			smp.NMT, smp.CodeCacheUsed = r.committed, r.codeUsed
			s.nmt.pending = nil
		}
		s.series = append(s.series, *smp)
		s.last = *smp
	}
}

// readWorkingSet subtracts the group's inactive file pages from its usage.
func (s *Sampler) readWorkingSet(smp *Sample, errs map[string]error) {
	if s.t.CgroupDir == "" {
		return
	}
	inactive, err := inactiveFile(s.t.CgroupDir)
	if err != nil {
		errs["working set"] = err
		return
	}
	smp.WorkingSet = WorkingSet(smp.CgroupUsage, inactive)
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
