package report

import "github.com/jvmfit/jvmfit/internal/trial"

// The three memory figures a report sets side by side: the cgroup peak
// (what the limit is checked against, page cache included), the working set
// (usage minus inactive file pages: what the kubelet evicts on and kubectl
// top shows) and the process's anonymous memory (heap, metaspace, malloc,
// stacks: what the app itself holds, free of page cache).

// workingSetPeak is the trial's working-set peak; results stored before
// the trial carried its own figure fall back to the summary's.
func workingSetPeak(r *trial.Result) int64 {
	if r.WorkingSetPeakBytes > 0 {
		return r.WorkingSetPeakBytes
	}
	return r.Summary.WorkingSetPeak
}

// anonPeak is the highest RssAnon over the stored samples. The summary
// keeps no anonymous-memory peak, so it is read from the series: 0 (shown
// as a dash) for a trial stored without one.
func anonPeak(r *trial.Result) int64 {
	var peak int64
	for i := range r.Series {
		peak = max(peak, r.Series[i].RSSAnon)
	}
	return peak
}
