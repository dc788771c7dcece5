package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TrialText is `jvmfit run`'s answer: the summary line, then the details a person checks
// next: why it failed, what the JVM was given, where memory went.
func TrialText(w io.Writer, r *trial.Result, db string) {
	fmt.Fprintln(w, r.Spec.AppName+": "+r.Line())
	for _, f := range r.Failed {
		fmt.Fprintln(w, "  failed:   "+f)
	}
	opts := strings.Join(r.Spec.JVMOptions, " ")
	switch {
	case r.Spec.Launcher == trial.LauncherExec:
		opts = strings.TrimSpace("jvmfit exec's plan in the trial's cgroup, then " + opts)
		if r.Spec.Profile != "" {
			opts += " (profile " + r.Spec.Profile + ")"
		}
	case opts == "":
		opts = "(none: the JDK's own ergonomics)"
	}
	fmt.Fprintf(w, "  jvm:      %s, JDK %d: %s%s\n", r.Spec.JVM, r.Spec.JDKVersion, opts, envText(r.Spec.JVMEnv))
	for _, f := range r.Findings {
		fmt.Fprintln(w, "  finding:  "+f)
	}
	if l := r.Load; l != nil && l.Requests > 0 {
		fmt.Fprintf(w, "  load:     %d requests, %.1f req/s (target %g), success %.2f%%, p50 %s, p99 %s, p99.9 %s, max %s\n",
			l.Requests, l.Throughput, l.TargetRate, l.Success*100,
			l.Latencies.P50.Round(time.Microsecond), l.Latencies.P99.Round(time.Microsecond),
			l.Latencies.P999.Round(time.Microsecond), l.Latencies.Max.Round(time.Microsecond))
	}
	if l := r.Load; l != nil && len(l.Errors) > 0 {
		errs := l.Errors
		if len(errs) > 3 {
			errs = errs[:3]
		}
		fmt.Fprintf(w, "  errors:   %s\n", strings.Join(errs, "; "))
	}
	if s := r.Saturation; s != nil {
		fmt.Fprintf(w, "  saturate: %.1f req/s, p99 %s\n", s.Throughput, s.Latencies.P99.Round(time.Microsecond))
	}
	sm := r.Summary
	fmt.Fprintf(w, "  memory:   cgroup peak %s, working set peak %s, RSS peak %s, heap used/committed peak %s/%s, metaspace %s\n",
		size.Format(r.MemoryPeakBytes), size.Format(r.WorkingSetPeakBytes), size.Format(sm.RSSPeak), size.Format(sm.HeapUsedPeak),
		size.Format(sm.HeapCommPeak), size.Format(sm.MetaspacePeak))
	if sm.GCCount > 0 {
		fmt.Fprintf(w, "  gc:       %d collections, %s (%.1f%% of the run), live set avg/peak %s/%s\n",
			sm.GCCount, sm.GCTime.Round(time.Millisecond), sm.GCShare*100, size.Format(sm.LiveAvg), size.Format(sm.LivePeak))
	}
	fmt.Fprintf(w, "  process:  %d threads, %d fds, CPU %s, throttled %s\n",
		sm.ThreadsPeak, sm.FDsPeak, sm.CPUTime.Round(time.Millisecond), sm.Throttled.Round(time.Millisecond))
	if len(r.NMT) > 0 {
		fmt.Fprintf(w, "  nmt:      %s\n", nmtLine(r.NMT))
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "  note:     "+n)
	}
	if r.OutputTail != "" {
		fmt.Fprintln(w, "  output (last lines):")
		for _, l := range strings.Split(r.OutputTail, "\n") {
			fmt.Fprintln(w, "    | "+l)
		}
	}
	if r.LogFile != "" {
		fmt.Fprintln(w, "  log:      "+r.LogFile)
	}
	fmt.Fprintf(w, "  stored:   trial %d, experiment %q in %s\n", r.ID, r.Experiment, db)
}

// envText is the mode's environment, as " (env K=V ...)".
func envText(env map[string]string) string {
	if len(env) == 0 {
		return ""
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + env[k]
	}
	return " (env " + strings.Join(keys, " ") + ")"
}

// nmtLine lists the largest committed categories first.
func nmtLine(m map[string]trial.NMT) string {
	type kv struct {
		k string
		v int64
	}
	var all []kv
	for k, v := range m {
		if k != "Total" && v.Committed > 0 {
			all = append(all, kv{k, v.Committed})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
	var parts []string
	if t, ok := m["Total"]; ok {
		parts = append(parts, "total "+size.Format(t.Committed))
	}
	for i, e := range all {
		if i == 6 {
			break
		}
		parts = append(parts, e.k+" "+size.Format(e.v))
	}
	return strings.Join(parts, ", ")
}
