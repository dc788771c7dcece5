package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// csvColumns are flat, unit-suffixed and stable: spreadsheets and scripts
// address them by name.
var csvColumns = []struct {
	name string
	get  func(*trial.Result) string
}{
	{"id", func(r *trial.Result) string { return strconv.FormatInt(r.ID, 10) }},
	{"experiment", func(r *trial.Result) string { return r.Experiment }},
	{"key", func(r *trial.Result) string { return r.Key }},
	{"app", appLabel},
	{"cpus", func(r *trial.Result) string { return f64(r.Spec.CPUs) }},
	{"cpuset", func(r *trial.Result) string { return r.Spec.CPUSet }},
	{"memory_bytes", func(r *trial.Result) string { return i64(r.Spec.MemoryBytes) }},
	{"no_limits", func(r *trial.Result) string { return strconv.FormatBool(r.Spec.NoLimits) }},
	{"jvm", func(r *trial.Result) string { return r.Spec.JVM }},
	{"jvm_options", func(r *trial.Result) string { return strings.Join(r.Spec.JVMOptions, " ") }},
	{"java", func(r *trial.Result) string { return r.Spec.Java }},
	{"jdk_version", func(r *trial.Result) string { return strconv.Itoa(r.Spec.JDKVersion) }},
	{"rate", func(r *trial.Result) string { return f64(rate(r)) }},
	{"repeat", func(r *trial.Result) string { return strconv.Itoa(r.Spec.Repeat) }},
	{"verdict", func(r *trial.Result) string { return string(r.Verdict) }},
	{"kind", func(r *trial.Result) string { return string(r.Kind) }},
	{"failed", func(r *trial.Result) string { return strings.Join(r.Failed, "; ") }},
	{"started_at", func(r *trial.Result) string { return ts(r.StartedAt) }},
	{"ended_at", func(r *trial.Result) string { return ts(r.EndedAt) }},
	{"start_seconds", func(r *trial.Result) string { return f64(r.StartSeconds) }},
	{"memory_peak_bytes", func(r *trial.Result) string { return i64(r.MemoryPeakBytes) }},
	{"working_set_peak_bytes", func(r *trial.Result) string { return i64(workingSetPeak(r)) }},
	{"heap_max_bytes", func(r *trial.Result) string { return i64(r.HeapMaxBytes) }},
	{"requests", func(r *trial.Result) string { return loadI(r, func(l loadT) int64 { return l.Requests }) }},
	{"throughput", func(r *trial.Result) string { return f64(throughput(r)) }},
	{"success", func(r *trial.Result) string { return f64(success(r)) }},
	{"p50_ms", func(r *trial.Result) string { return lat(r, func(l loadT) time.Duration { return l.Latencies.P50 }) }},
	{"p90_ms", func(r *trial.Result) string { return lat(r, func(l loadT) time.Duration { return l.Latencies.P90 }) }},
	{"p99_ms", func(r *trial.Result) string { return lat(r, func(l loadT) time.Duration { return l.Latencies.P99 }) }},
	{"p999_ms", func(r *trial.Result) string { return lat(r, func(l loadT) time.Duration { return l.Latencies.P999 }) }},
	{"max_ms", func(r *trial.Result) string { return lat(r, func(l loadT) time.Duration { return l.Latencies.Max }) }},
	{"cgroup_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.CgroupPeak) }},
	{"rss_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.RSSPeak) }},
	{"rss_anon_peak_bytes", func(r *trial.Result) string { return i64(anonPeak(r)) }},
	{"pss_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.PSSPeak) }},
	{"heap_used_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.HeapUsedPeak) }},
	{"heap_committed_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.HeapCommPeak) }},
	{"metaspace_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.MetaspacePeak) }},
	{"threads_peak", func(r *trial.Result) string { return strconv.Itoa(r.Summary.ThreadsPeak) }},
	{"fds_peak", func(r *trial.Result) string { return strconv.Itoa(r.Summary.FDsPeak) }},
	{"cpu_seconds", func(r *trial.Result) string { return f64(r.Summary.CPUTime.Seconds()) }},
	{"throttled_seconds", func(r *trial.Result) string { return f64(r.Summary.Throttled.Seconds()) }},
	{"live_avg_bytes", func(r *trial.Result) string { return i64(r.Summary.LiveAvg) }},
	{"live_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.LivePeak) }},
	{"mapped_avg_bytes", func(r *trial.Result) string { return i64(r.Summary.MappedAvg) }},
	{"mapped_peak_bytes", func(r *trial.Result) string { return i64(r.Summary.MappedPeak) }},
	{"gc_count", func(r *trial.Result) string { return i64(r.Summary.GCCount) }},
	{"gc_seconds", func(r *trial.Result) string { return f64(r.Summary.GCTime.Seconds()) }},
	{"gc_share", func(r *trial.Result) string { return f64(r.Summary.GCShare) }},
	{"exit_code", func(r *trial.Result) string {
		if r.ExitCode == nil {
			return ""
		}
		return strconv.Itoa(*r.ExitCode)
	}},
	{"exit_signal", func(r *trial.Result) string { return r.ExitSignal }},
	{"kernel", func(r *trial.Result) string { return r.Env.Kernel }},
	{"cpu_model", func(r *trial.Result) string { return r.Env.CPUModel }},
	{"jdk", func(r *trial.Result) string { return r.Env.JDK }},
	{"jvmfit", func(r *trial.Result) string { return r.Env.Jvmfit }},
}

// CSV writes one row per trial. encoding/csv quotes commas, quotes and
// newlines in names and options.
func CSV(w io.Writer, trials []*trial.Result) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(csvColumns))
	for i, c := range csvColumns {
		head[i] = c.name
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range sorted(trials) {
		row := make([]string, len(csvColumns))
		for i, c := range csvColumns {
			row[i] = c.get(r)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func f64(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
func i64(v int64) string   { return strconv.FormatInt(v, 10) }

func ts(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func loadI(r *trial.Result, get func(loadT) int64) string {
	if r.Load == nil {
		return ""
	}
	return i64(get(*r.Load))
}

func lat(r *trial.Result, get func(loadT) time.Duration) string {
	if r.Load == nil {
		return ""
	}
	return f64(float64(get(*r.Load)) / float64(time.Millisecond))
}
