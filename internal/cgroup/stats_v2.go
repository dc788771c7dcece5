//go:build linux

package cgroup

import (
	"fmt"
	"time"
)

// Stats reads the unified hierarchy's files. memory.peak is recent (5.19);
// without it the peak is the highest usage jvmfit saw.
func (g *grpV2) Stats() (Stats, error) {
	s, err := ReadStatsV2(g.dir)
	if err != nil {
		return s, err
	}
	g.mu.Lock()
	grpTrackPeak(&g.peak, &s)
	g.mu.Unlock()
	return s, nil
}

// ReadStatsV2 reads one v2 group's figures from its directory: a trial
// group's, or a group jvmfit did not make, such as a container's.
func ReadStatsV2(dir string) (Stats, error) {
	var s Stats
	var err error
	if s.Usage, err = ReadInt(dir, "memory.current"); err != nil {
		return s, fmt.Errorf("cannot read memory usage of %s: %v", dir, err)
	}
	s.Peak, _ = ReadInt(dir, "memory.peak")
	if s.Limit, err = ReadInt(dir, "memory.max"); err != nil {
		s.Limit = -1
	}
	s.Swap, _ = ReadInt(dir, "memory.swap.current")
	if st, err := ReadKeyed(dir, "memory.stat"); err == nil {
		s.RSS, s.Cache = st["anon"], st["file"]
	}
	if st, err := ReadKeyed(dir, "memory.events"); err == nil {
		s.OOMKills = st["oom_kill"]
	}
	if pids, err := grpReadProcs(dir); err == nil {
		s.Procs = len(pids)
	}
	if st, err := ReadKeyed(dir, "cpu.stat"); err == nil {
		s.CPUUsage = time.Duration(st["usage_usec"]) * time.Microsecond
		s.NrPeriods, s.NrThrottled = st["nr_periods"], st["nr_throttled"]
		s.Throttled = time.Duration(st["throttled_usec"]) * time.Microsecond
	}
	return s, nil
}

// OOMKills reads memory.events' oom_kill (hierarchical: a leaf trial group
// counts only its own kills).
func (g *grpV2) OOMKills() (int64, error) {
	st, err := ReadKeyed(g.dir, "memory.events")
	if err != nil {
		return 0, err
	}
	return st["oom_kill"], nil
}
