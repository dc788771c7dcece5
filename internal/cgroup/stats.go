//go:build linux

package cgroup

import "time"

// Stats is one reading of a trial group. Sizes are bytes; a field the
// kernel does not offer stays zero.
type Stats struct {
	Usage int64 // memory charged now, page cache included
	Peak  int64 // highest Usage since creation (tracked by jvmfit where the kernel has no peak file)
	Limit int64 // memory limit, -1 = none
	RSS   int64 // anonymous memory: memory.stat rss (v1) or anon (v2)
	Cache int64 // page cache: memory.stat cache (v1) or file (v2)
	Swap  int64 // swap used (should stay 0: trial groups forbid it)

	CPUUsage    time.Duration // cumulative CPU time of the group
	NrPeriods   int64         // CFS periods with runnable tasks
	NrThrottled int64         // periods in which the quota ran out
	Throttled   time.Duration // total time tasks waited for quota

	OOMKills int64 // processes OOM-killed in the group
	Failcnt  int64 // v1: times usage hit the limit (stays 0 on recent kernels even on OOM)
	Procs    int   // processes in the group
}

// grpTrackPeak keeps the highest usage seen, for kernels without a peak file.
func grpTrackPeak(seen *int64, s *Stats) {
	if s.Usage > *seen {
		*seen = s.Usage
	}
	if s.Peak < *seen {
		s.Peak = *seen
	}
}
