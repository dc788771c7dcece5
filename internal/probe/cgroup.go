//go:build linux

package probe

import "time"

// CgroupStats is what the sandbox reads from a trial's cgroup (v1 or v2) for
// each sample. Sizes are bytes; zero means not available.
type CgroupStats struct {
	Usage       int64         // memory.usage_in_bytes / memory.current
	Peak        int64         // memory.max_usage_in_bytes / memory.peak
	RSS         int64         // memory.stat rss (v1) / anon (v2)
	Cache       int64         // memory.stat cache (v1) / file (v2)
	CPUUsage    time.Duration // cpuacct.usage (v1) / cpu.stat usage_usec (v2)
	NrThrottled int64         // cpu.stat nr_throttled
	Throttled   time.Duration // cpu.stat throttled_time (v1, ns) / throttled_usec (v2)
}
