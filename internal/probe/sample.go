//go:build linux

package probe

import "time"

// Sample is one reading of a running JVM and its cgroup. Sizes are bytes;
// zero means "not available" (e.g. no hsperfdata yet).
type Sample struct {
	At time.Duration `json:"t"` // since the process started

	// cgroup
	CgroupUsage int64 `json:"cg_usage"`
	CgroupPeak  int64 `json:"cg_peak,omitempty"` // the cgroup's own high-water mark
	CgroupRSS   int64 `json:"cg_rss"`            // memory.stat rss / anon
	CgroupCache int64 `json:"cg_cache"`          // memory.stat cache / file
	// WorkingSet is usage minus inactive file pages, as cAdvisor and the
	// kubelet count it (kubectl top, evictions).
	WorkingSet  int64         `json:"ws,omitempty"`
	CPUTime     time.Duration `json:"cpu"` // cumulative: the cgroup's, else the process's
	Throttled   time.Duration `json:"throttled"`
	NrThrottled int64         `json:"nr_throttled"`

	// process (/proc)
	RSS     int64 `json:"rss"`
	RSSAnon int64 `json:"rss_anon,omitempty"` // RssAnon of /proc/PID/status
	PSS     int64 `json:"pss"`
	Threads int   `json:"threads"`
	FDs     int   `json:"fds"`

	ProcCPUTime time.Duration `json:"proc_cpu,omitempty"` // utime+stime of the process

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

	HeapMax        int64 `json:"heap_max,omitempty"`
	ClassSpaceUsed int64 `json:"class_space_used,omitempty"`
	JavaThreads    int   `json:"java_threads,omitempty"` // java.threads.live (Threads counts all OS threads)
	Classes        int64 `json:"classes,omitempty"`

	// Read every smapsEvery samples (zero in between): the resident size
	// of the mapped CDS archive or AOT cache, and of other file mappings
	// that are not the JVM's own code (mapped NIO buffers).
	ArchiveRSS    int64 `json:"archive_rss,omitempty"`
	ArchiveAnon   int64 `json:"archive_anon,omitempty"` // the archive's written (anonymous) pages, part of RSSAnon
	MappedFileRSS int64 `json:"mapped_rss,omitempty"`

	// With Target.NMT, on the samples after each NMT reading (every few
	// seconds): committed bytes per NMT category, and the code cache's
	// high-water mark (the sum of its heaps' max_used, from
	// Compiler.codecache), which catches peaks between readings.
	NMT           map[string]int64 `json:"nmt,omitempty"`
	CodeCacheUsed int64            `json:"code_used,omitempty"`
}

// HasJVM reports whether the JVM fields were read (the perf-data file existed
// and parsed).
func (s Sample) HasJVM() bool { return s.HeapCommitted > 0 || s.HeapMax > 0 }
