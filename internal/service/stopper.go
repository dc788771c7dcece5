//go:build linux

package service

import (
	"sync"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/sandbox"
)

// stopper makes a service's Stop run once, every later call getting the
// first one's footprint; stopped is closed when it has.
type stopper struct {
	once    sync.Once
	stopped chan struct{}
	usage   Usage
	err     error
}

func newStopper() stopper { return stopper{stopped: make(chan struct{})} }

func (s *stopper) stopOnce(stop func() (Usage, error)) (Usage, error) {
	s.once.Do(func() {
		s.usage, s.err = stop()
		close(s.stopped)
	})
	<-s.stopped
	return s.usage, s.err
}

// usageOf is a service's footprint read from its process's cgroup now
// (after Stop, the last reading before the group went).
func usageOf(s app.Service, kind string, proc *sandbox.Process) (Usage, error) {
	u := Usage{Name: s.Name, Kind: kind, MemoryLimit: s.Memory, CPUs: s.CPUs}
	if proc == nil {
		return u, nil
	}
	st, err := proc.Stats()
	if err != nil {
		return u, err
	}
	u.MemoryPeak, u.CPUTime, u.OOMKilled = st.Peak, st.CPUUsage, st.OOMKills > 0
	return u, nil
}
