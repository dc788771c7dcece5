package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// The memory files a stall is read from, v1 and v2 (stall.go judges them).
// The directory is a parameter so that tests read fixture trees.

// pressure is one reading of a group's memory pressure. A counter the
// kernel does not offer stays zero; a flag stays false.
type pressure struct {
	Usage, Limit int64
	UnderOOM     bool  // v1 memory.oom_control under_oom: the OOM killer is needed and not acting
	Refaults     int64 // pages evicted and read back (workingset_refault_*): thrashing
	MajFaults    int64 // memory.stat pgmajfault: faults that waited for a page read from disk
	EventsOOM    int64 // v2 memory.events oom: the limit was hit and reclaim failed
	FullAvg10    float64
	HasPSI       bool // memory.pressure exists (v2 with PSI)
}

// readPressure reads dir, one group's memory directory (v1's memory
// hierarchy, or v2's single directory); the version is told by its files.
func readPressure(dir string) (pressure, error) {
	var p pressure
	if _, err := os.Stat(filepath.Join(dir, "memory.usage_in_bytes")); err == nil {
		return p, p.readV1(dir)
	}
	return p, p.readV2(dir)
}

func (p *pressure) readV1(dir string) error {
	var err error
	if p.Usage, err = cgroup.ReadInt(dir, "memory.usage_in_bytes"); err != nil {
		return err
	}
	if p.Limit, err = cgroup.ReadInt(dir, "memory.limit_in_bytes"); err != nil {
		return err
	}
	oc, _ := cgroup.ReadKeyed(dir, "memory.oom_control")
	p.UnderOOM = oc["under_oom"] == 1
	st, _ := cgroup.ReadKeyed(dir, "memory.stat")
	p.Refaults = st["workingset_refault_file"] + st["workingset_refault_anon"] + st["workingset_refault"]
	p.MajFaults = st["pgmajfault"]
	return nil
}

func (p *pressure) readV2(dir string) error {
	var err error
	if p.Usage, err = cgroup.ReadInt(dir, "memory.current"); err != nil {
		return err
	}
	if p.Limit, err = cgroup.ReadInt(dir, "memory.max"); err != nil {
		return err
	}
	ev, _ := cgroup.ReadKeyed(dir, "memory.events")
	p.EventsOOM = ev["oom"]
	st, _ := cgroup.ReadKeyed(dir, "memory.stat")
	p.Refaults = st["workingset_refault_file"] + st["workingset_refault_anon"]
	p.MajFaults = st["pgmajfault"]
	p.FullAvg10, p.HasPSI = readPSIFull(dir)
	return nil
}

// readPSIFull reads "full avg10=" of memory.pressure: the share of the last
// 10 s in which every task of the group waited on memory.
func readPSIFull(dir string) (float64, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "memory.pressure"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "full" {
			continue
		}
		if v, ok := strings.CutPrefix(f[1], "avg10="); ok {
			x, err := strconv.ParseFloat(v, 64)
			return x, err == nil
		}
	}
	return 0, false
}
