//go:build linux

package cgroup

import (
	"fmt"
	"time"
)

// Stats reads the memory, cpu and cpuacct hierarchies. Only the memory
// files are required; the others are skipped when absent.
func (g *grpV1) Stats() (Stats, error) {
	s, err := ReadStatsV1(g.dirs)
	if err != nil {
		return s, err
	}
	g.mu.Lock()
	grpTrackPeak(&g.peak, &s)
	g.mu.Unlock()
	return s, nil
}

// ReadStatsV1 reads one v1 group's figures from its directories
// (controller → directory): a trial group's, or a group jvmfit did not
// make, such as a container's.
func ReadStatsV1(dirs map[string]string) (Stats, error) {
	var s Stats
	mem := dirs["memory"]
	var err error
	if s.Usage, err = ReadInt(mem, "memory.usage_in_bytes"); err != nil {
		return s, fmt.Errorf("cannot read memory usage of %s: %v", mem, err)
	}
	s.Peak, _ = ReadInt(mem, "memory.max_usage_in_bytes")
	s.Limit, _ = ReadInt(mem, "memory.limit_in_bytes")
	if s.Limit >= 1<<62 { // v1 spells "no limit" as a page-rounded huge number
		s.Limit = -1
	}
	s.Failcnt, _ = ReadInt(mem, "memory.failcnt")
	if st, err := ReadKeyed(mem, "memory.stat"); err == nil {
		s.RSS, s.Cache, s.Swap = st["rss"], st["cache"], st["swap"]
	}
	if st, err := ReadKeyed(mem, "memory.oom_control"); err == nil {
		s.OOMKills = st["oom_kill"]
	}
	if pids, err := grpReadProcs(mem); err == nil {
		s.Procs = len(pids)
	}
	if d, ok := dirs["cpuacct"]; ok {
		if ns, err := ReadInt(d, "cpuacct.usage"); err == nil {
			s.CPUUsage = time.Duration(ns)
		}
	}
	if st, err := ReadKeyed(dirs["cpu"], "cpu.stat"); err == nil {
		s.NrPeriods, s.NrThrottled = st["nr_periods"], st["nr_throttled"]
		s.Throttled = time.Duration(st["throttled_time"]) // ns on v1
	}
	return s, nil
}

// OOMKills reads memory.oom_control's oom_kill (kernel 4.13+). failcnt is
// no substitute: it stays 0 on recent kernels even when the OOM killer ran.
func (g *grpV1) OOMKills() (int64, error) {
	st, err := ReadKeyed(g.dirs["memory"], "memory.oom_control")
	if err != nil {
		return 0, err
	}
	return st["oom_kill"], nil
}
