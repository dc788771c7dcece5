//go:build linux

package probe

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// Summary condenses a series; trial.Summary is this type, stored with every
// trial.
type Summary struct {
	CgroupPeak    int64 `json:"cgroup_peak"`
	RSSPeak       int64 `json:"rss_peak"`
	PSSPeak       int64 `json:"pss_peak"`
	HeapUsedPeak  int64 `json:"heap_used_peak"`
	HeapCommPeak  int64 `json:"heap_committed_peak"`
	MetaspacePeak int64 `json:"metaspace_peak"` // committed
	ThreadsPeak   int   `json:"threads_peak"`
	FDsPeak       int   `json:"fds_peak"`
	// WorkingSetPeak is the highest usage minus inactive file pages
	// (cAdvisor's working set) over the samples.
	WorkingSetPeak int64         `json:"working_set_peak,omitempty"`
	CPUTime        time.Duration `json:"cpu_time"`
	Throttled      time.Duration `json:"throttled"`

	LiveAvg     int64         `json:"live_avg"`
	LivePeak    int64         `json:"live_peak"`
	Live10Avg   int64         `json:"live_last10_avg"`
	MappedAvg   int64         `json:"mapped_avg"`
	MappedPeak  int64         `json:"mapped_peak"`
	Mapped10Avg int64         `json:"mapped_last10_avg"`
	GCCount     int64         `json:"gc_count"`
	GCTime      time.Duration `json:"gc_time"`
	GCShare     float64       `json:"gc_share"`

	// NMTPeak is the highest committed bytes per NMT category ("Total"
	// included) over the readings taken during the run.
	NMTPeak map[string]int64 `json:"nmt_peak,omitempty"`
}

// lastN is seed 001's short window: "the last 10 garbage collections".
const lastN = 10

// Summarise computes the peaks and seed 001's GC statistics from a series.
//
// GC points are the samples where a GC count rose since the previous JVM
// reading. The live set is old-gen used at points where the old (full) GC
// count rose, the only moment it is exact; a run with no old GC falls back to
// heap used at every GC point, which overestimates it. Mapped memory is heap
// committed at every GC point. wall is the run's duration for the GC share;
// 0 means the series' own span.
func Summarise(series []Sample, wall time.Duration) Summary {
	var sum Summary
	var live, oldLive, mapped []int64
	var prevYoung, prevOld int64
	for _, s := range series {
		sum.CgroupPeak = max(sum.CgroupPeak, s.CgroupUsage, s.CgroupPeak)
		sum.RSSPeak = max(sum.RSSPeak, s.RSS)
		sum.PSSPeak = max(sum.PSSPeak, s.PSS)
		sum.WorkingSetPeak = max(sum.WorkingSetPeak, s.WorkingSet)
		sum.ThreadsPeak = max(sum.ThreadsPeak, s.Threads)
		sum.NMTPeak = plan.RaiseEach(sum.NMTPeak, s.NMT)
		sum.FDsPeak = max(sum.FDsPeak, s.FDs)
		// Cumulative counters: the largest seen, in case the last reading
		// came from a source that had already gone.
		sum.CPUTime = max(sum.CPUTime, s.CPUTime)
		sum.Throttled = max(sum.Throttled, s.Throttled)
		if !s.HasJVM() {
			continue
		}
		sum.HeapUsedPeak = max(sum.HeapUsedPeak, s.HeapUsed)
		sum.HeapCommPeak = max(sum.HeapCommPeak, s.HeapCommitted)
		sum.MetaspacePeak = max(sum.MetaspacePeak, s.MetaspaceCommitted, s.MetaspaceUsed)
		sum.GCCount = max(sum.GCCount, s.YoungGCs+s.OldGCs)
		sum.GCTime = max(sum.GCTime, s.GCTime)

		oldGC := s.OldGCs > prevOld
		anyGC := oldGC || s.YoungGCs > prevYoung
		prevYoung, prevOld = max(prevYoung, s.YoungGCs), max(prevOld, s.OldGCs)
		if !anyGC {
			continue
		}
		mapped = append(mapped, s.HeapCommitted)
		live = append(live, s.HeapUsed)
		if oldGC {
			oldLive = append(oldLive, s.OldUsed)
		}
	}
	if len(oldLive) > 0 {
		live = oldLive
	}
	sum.LiveAvg, sum.LivePeak, sum.Live10Avg = stats(live)
	sum.MappedAvg, sum.MappedPeak, sum.Mapped10Avg = stats(mapped)

	if wall <= 0 && len(series) > 1 {
		wall = series[len(series)-1].At - series[0].At
	}
	if wall > 0 {
		sum.GCShare = float64(sum.GCTime) / float64(wall)
	}
	return sum
}

// stats gives the mean, the peak and the mean of the last ten values.
func stats(v []int64) (avg, peak, last10 int64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	return mean(v), maxOf(v), mean(v[max(0, len(v)-lastN):])
}

func mean(v []int64) int64 {
	var total float64
	for _, x := range v {
		total += float64(x)
	}
	return int64(total/float64(len(v)) + 0.5)
}

func maxOf(v []int64) int64 {
	m := v[0]
	for _, x := range v[1:] {
		m = max(m, x)
	}
	return m
}
