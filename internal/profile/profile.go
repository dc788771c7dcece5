// Package profile builds an app's measured profile (plan.Profile) from one
// trial's measurements: the probe's series (hsperf, /proc, smaps, NMT read
// every few seconds) and its summary. docs/launcher.md says what each field
// is and how it is measured.
package profile

import (
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// NMT categories the profile reads. Direct buffers (Unsafe.allocateMemory)
// are "Other" from JDK 11 on.
const (
	nmtCode   = "Code"
	nmtDirect = "Other"
	nmtSelf   = "Native Memory Tracking"
)

// From builds the profile of r's app. It refuses, with one line saying what
// to rerun, a trial that lacks what a profile needs: JVM counters, NMT
// readings, a run that reached its load. Notes are caveats that do not
// stop it (no full GC in the run, for example).
func From(r *trial.Result) (p *plan.Profile, notes []string, err error) {
	if err := usable(r); err != nil {
		return nil, nil, err
	}
	s := r.Series
	p = seriesPeaks(s)
	p.Version, p.App, p.Trial = plan.ProfileVersion, r.Spec.AppName, r.ID
	p.JDKVersion, p.JDKVendor = r.Spec.JDKVersion, vendor(r.Env.JDK)
	p.Options = append([]string(nil), r.Spec.JVMOptions...)
	p.MemoryLimitBytes, p.CPUs, p.Rate = r.Spec.MemoryBytes, r.Spec.CPUs, rate(r)
	p.LiveHeapBytes = r.Summary.LivePeak
	if !hadFullGC(s) {
		notes = append(notes, "no full GC in the run: liveHeapBytes is the heap used after young GCs, an overestimate (jvmfit run --profile-out forces one at the end)")
	}
	if p.PeakUncappedNativeBytes == 0 {
		notes = append(notes, "peakUncappedNativeBytes is 0: no sample had both NMT and /proc's RssAnon")
	}
	return p, notes, p.Validate()
}

// seriesPeaks is the peaks of a series, each field from its source: hsperf
// (classes, metaspace), /proc (threads), smaps (mapped buffers, the CDS
// archive), NMT (code cache, direct memory, what no option caps). The live
// set is left to the caller: a trial's summary, or a recording's old-GC
// points.
func seriesPeaks(s []probe.Sample) *plan.Profile {
	return &plan.Profile{
		LoadedClasses:           peak(s, func(x probe.Sample) int64 { return x.Classes }),
		MetaspaceUsedBytes:      peak(s, func(x probe.Sample) int64 { return x.MetaspaceUsed }),
		ClassSpaceUsedBytes:     peak(s, func(x probe.Sample) int64 { return x.ClassSpaceUsed }),
		CodeCacheUsedBytes:      peak(s, func(x probe.Sample) int64 { return x.CodeCacheUsed }),
		PeakThreads:             peak(s, func(x probe.Sample) int64 { return int64(x.Threads) }),
		DirectMemoryBytes:       peak(s, func(x probe.Sample) int64 { return x.NMT[nmtDirect] }),
		MappedBufferBytes:       peak(s, func(x probe.Sample) int64 { return x.MappedFileRSS }),
		CDSArchiveBytes:         peak(s, func(x probe.Sample) int64 { return x.ArchiveRSS }),
		CDSArchiveAnonBytes:     archiveAnon(s),
		PeakUncappedNativeBytes: uncappedNative(s),
		NMTPeakBytes:            probe.Summarise(s, 0).NMTPeak,
	}
}

// usable says why a trial cannot give a profile, naming what to rerun with.
func usable(r *trial.Result) error {
	id := fmt.Sprintf("trial %d", r.ID)
	if r.ID == 0 {
		id = "the trial"
	}
	switch r.Kind {
	case trial.KindOOMKilled, trial.KindExited, trial.KindNotReady, trial.KindMemoryStall, trial.KindError:
		return fmt.Errorf("%s ended %s before its load was done, so its peaks are not the app's: rerun it at a larger --memory", id, r.Kind)
	}
	var jvm, nmt bool
	for _, x := range r.Series {
		jvm = jvm || x.HasJVM()
		nmt = nmt || len(x.NMT) > 0
	}
	switch {
	case len(r.Series) == 0:
		return fmt.Errorf("%s has no samples stored: rerun it with jvmfit run --profile-out FILE", id)
	case !jvm:
		return fmt.Errorf("%s has no JVM counters (hsperfdata; was it run with -XX:-UsePerfData?): rerun it without that option and with --profile-out FILE", id)
	case !nmt:
		return fmt.Errorf("%s was run without NMT sampling: rerun it with jvmfit run --nmt (or --profile-out FILE)", id)
	}
	return nil
}

// uncappedNative is the peak over the run of what no JVM option caps, at
// each sample with an NMT reading: resident anonymous memory less the heap,
// metaspace (class space included) and code cache committed, the direct
// buffers, the CDS archive's written pages (counted in cdsArchiveBytes),
// and NMT's own bookkeeping (absent without NMT). Heap and metaspace come
// from hsperf in the same sample, code, direct and NMT from the reading
// just before it, the archive from the last smaps reading.
func uncappedNative(s []probe.Sample) int64 {
	var peak, archiveAnon int64
	for _, x := range s {
		if x.ArchiveRSS > 0 {
			archiveAnon = x.ArchiveAnon
		}
		if len(x.NMT) == 0 || x.RSSAnon == 0 || !x.HasJVM() {
			continue
		}
		capped := x.HeapCommitted + x.MetaspaceCommitted + x.NMT[nmtCode] + x.NMT[nmtDirect]
		peak = max(peak, x.RSSAnon-capped-archiveAnon-x.NMT[nmtSelf])
	}
	return peak
}

// archiveAnon is the archive's written pages at the sample where its
// resident size peaked (so never more than cdsArchiveBytes).
func archiveAnon(s []probe.Sample) int64 {
	var rss, anon int64
	for _, x := range s {
		if x.ArchiveRSS > rss {
			rss, anon = x.ArchiveRSS, min(x.ArchiveAnon, x.ArchiveRSS)
		}
	}
	return anon
}

func peak(s []probe.Sample, f func(probe.Sample) int64) int64 {
	var m int64
	for _, x := range s {
		m = max(m, f(x))
	}
	return m
}

// hadFullGC: the old-GC count rose during the series (or was above zero
// at its start, which counts a start-up full GC the series saw the end of).
func hadFullGC(s []probe.Sample) bool {
	return peak(s, func(x probe.Sample) int64 { return x.OldGCs }) > 0
}

// rate is the measured rate: the spec's, else what the load aimed at.
func rate(r *trial.Result) float64 {
	if r.Spec.Rate > 0 || r.Load == nil {
		return r.Spec.Rate
	}
	return r.Load.TargetRate
}

// vendor is what follows the version in Env.JDK ("17.0.15 Debian").
func vendor(jdk string) string {
	_, v, _ := strings.Cut(strings.TrimSpace(jdk), " ")
	return strings.TrimSpace(v)
}
