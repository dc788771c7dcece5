package probe

import "time"

// Sample is one reading of a running JVM and its cgroup. Sizes are bytes;
// zero means "not available" (e.g. no hsperfdata yet).
type Sample struct {
	At time.Duration `json:"t"` // since the process started

	// cgroup
	CgroupUsage int64         `json:"cg_usage"`
	CgroupRSS   int64         `json:"cg_rss"`   // memory.stat rss / anon
	CgroupCache int64         `json:"cg_cache"` // memory.stat cache / file
	CPUTime     time.Duration `json:"cpu"`      // cumulative
	Throttled   time.Duration `json:"throttled"`
	NrThrottled int64         `json:"nr_throttled"`

	// process (/proc)
	RSS     int64 `json:"rss"`
	PSS     int64 `json:"pss"`
	Threads int   `json:"threads"`
	FDs     int   `json:"fds"`

	// JVM (hsperfdata)
	HeapUsed           int64         `json:"heap_used"`
	HeapCommitted      int64         `json:"heap_committed"`
	YoungUsed          int64         `json:"young_used"`
	YoungCommitted     int64         `json:"young_committed"`
	OldUsed            int64         `json:"old_used"`
	OldCommitted       int64         `json:"old_committed"`
	MetaspaceUsed      int64         `json:"meta_used"`
	MetaspaceCommitted int64         `json:"meta_committed"`
	YoungGCs           int64         `json:"young_gcs"`
	OldGCs             int64         `json:"old_gcs"`
	GCTime             time.Duration `json:"gc_time"` // cumulative, all collectors
}
