package main

import (
	"fmt"
	"io"
	"time"

	"github.com/prometheus/common/model"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/profile"
)

// prodFlags are the profile command's production sources: a running JVM,
// its metrics endpoint, or a Prometheus server.
type prodFlags struct {
	pid                          int
	scrape, prometheus, selector string
	rng                          string
	duration, interval           time.Duration
	gc                           bool
}

func (f *prodFlags) add(fl *pflag.FlagSet) {
	fl.IntVar(&f.pid, "pid", 0, "profile the running JVM with this pid (this host; no restart)")
	fl.StringVar(&f.scrape, "scrape", "", "profile from the service's metrics URL (Prometheus text or OpenMetrics)")
	fl.StringVar(&f.prometheus, "prometheus", "", "profile from a Prometheus server at this URL (with --selector and --range)")
	fl.StringVar(&f.selector, "selector", "", `label matchers of the service's series for --prometheus, e.g. '{app="orders"}'`)
	fl.StringVar(&f.rng, "range", "7d", "window of --prometheus, up to now (Prometheus durations: 90m, 7d, 2w)")
	fl.DurationVar(&f.duration, "duration", 30*time.Second, "how long --pid and --scrape sample")
	fl.DurationVar(&f.interval, "interval", 0, "time between samples of --pid (default 1s) and --scrape (default 5s)")
	fl.BoolVar(&f.gc, "gc", false, "with --pid, force one full GC (jcmd GC.run) before the last sample so that the live set is measured")
}

// sources counts the sources given, --trial included.
func (f *prodFlags) sources(trial int64) int {
	n := 0
	for _, on := range []bool{trial > 0, f.pid != 0, f.scrape != "", f.prometheus != ""} {
		if on {
			n++
		}
	}
	return n
}

// run takes the profile from the one production source given.
func (f *prodFlags) run(cmd *cobra.Command, out string) error {
	if f.duration < 0 || f.interval < 0 {
		return usagef("--duration and --interval must not be negative")
	}
	if f.gc && f.pid == 0 {
		return usagef("--gc forces a full GC in the JVM of --pid: give --pid, or leave --gc out")
	}
	if f.selector != "" && f.prometheus == "" {
		return usagef("--selector goes with --prometheus URL")
	}
	ctx := cmd.Context()
	w := profile.Window{Duration: f.duration, Interval: f.interval}
	start := time.Now()
	var p *plan.Profile
	var notes []string
	var err error
	var pods []profile.Pod
	switch {
	case f.pid != 0:
		if f.pid < 0 {
			return usagef("--pid %d: give a process id", f.pid)
		}
		p, notes, err = profile.FromPID(ctx, f.pid, w, f.gc)
	case f.scrape != "":
		p, notes, err = profile.FromScrape(ctx, f.scrape, w)
	default:
		if f.selector == "" {
			return usagef(`--prometheus needs --selector, the service's label matchers, e.g. --selector '{app="orders"}'`)
		}
		rng, perr := model.ParseDuration(f.rng)
		if perr != nil || rng <= 0 {
			return usagef("--range %q: give a Prometheus duration such as 90m, 7d or 2w", f.rng)
		}
		p, pods, notes, err = profile.FromPrometheus(ctx, f.prometheus, f.selector, time.Duration(rng))
	}
	if profile.IsBadInput(err) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	for _, pod := range pods {
		podLine(stderr, pod)
	}
	fmt.Fprintf(stderr, "jvmfit: profile from %s %s in %.1fs\n", p.Source, p.From, time.Since(start).Seconds())
	return emitProfile(cmd.OutOrStdout(), stderr, out, p, notes)
}

// podLine is one pod's figures, for the profile that covers them all.
func podLine(w io.Writer, pod profile.Pod) {
	p := pod.Profile
	fmt.Fprintf(w, "jvmfit: pod %s: live %s, metaspace %s, code %s, java threads %d, native %s\n", pod.Name,
		mib(p.LiveHeapBytes, p.Sources["liveHeapBytes"]), mib(p.MetaspaceUsedBytes, p.Sources["metaspaceUsedBytes"]),
		mib(p.CodeCacheUsedBytes, p.Sources["codeCacheUsedBytes"]), p.PeakJavaThreads,
		mib(p.PeakUncappedNativeBytes, p.Sources["peakUncappedNativeBytes"]))
}

func mib(v int64, src string) string {
	if src == plan.SourceUnmeasured {
		return "unmeasured"
	}
	return fmt.Sprintf("%.1f MiB (%s)", float64(v)/(1<<20), src)
}
