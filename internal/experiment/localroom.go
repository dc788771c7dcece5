package experiment

import (
	"fmt"
	"math"
	"runtime"

	"github.com/prometheus/procfs"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Room is what one trial takes of a machine: its CPU limit and its memory
// limit.
type Room struct {
	CPUs        float64
	MemoryBytes int64
}

// host is what this machine has for trials: its CPUs and the memory the
// kernel says is available.
type host struct {
	CPUs           int
	AvailableBytes int64
}

func hostRoom() host {
	h := host{CPUs: runtime.NumCPU()}
	if fs, err := procfs.NewDefaultFS(); err == nil {
		if mi, err := fs.Meminfo(); err == nil && mi.MemAvailable != nil {
			h.AvailableBytes = int64(*mi.MemAvailable) * 1024
		}
	}
	return h
}

// fits says whether n trials fit side by side on h: each gets CPUs of its
// own for its app (its limit, rounded up) and one for its load generator,
// so that no trial measures another, and all their limits fit in the
// memory available. Otherwise one line naming what they would need.
func (r Room) fits(n int, h host) error {
	perTrial := int(math.Ceil(r.CPUs)) + 1
	switch {
	case n*perTrial > h.CPUs:
		return fmt.Errorf("--parallel %d needs %d CPUs on this machine (%d trials × (%g for the app + 1 for its load)), and it has %d: give --parallel %d or less, or --backend k8s",
			n, n*perTrial, n, r.CPUs, h.CPUs, max(1, h.CPUs/perTrial))
	case int64(n)*r.MemoryBytes > h.AvailableBytes:
		return fmt.Errorf("--parallel %d needs %s of memory (%d trials × %s), and %s is available: give --parallel %d or less, or --backend k8s",
			n, size.Format(int64(n)*r.MemoryBytes), n, size.Format(r.MemoryBytes), size.Format(h.AvailableBytes), max(1, h.AvailableBytes/max(1, r.MemoryBytes)))
	}
	return nil
}
