package profile

import "github.com/jvmfit/jvmfit/internal/plan"

// sampledSources is where each field of a profile built from the probe's
// samples (a trial's, or a running JVM's with --pid) came from; a field
// that is zero is marked unmeasured. The NMT fields are NMT's only when
// the JVM ran with it.
func sampledSources(p *plan.Profile) map[string]string {
	src := map[string]string{
		"loadedClasses":           plan.SourceHsperf,
		"metaspaceUsedBytes":      plan.SourceHsperf,
		"classSpaceUsedBytes":     plan.SourceHsperf,
		"liveHeapBytes":           plan.SourceHsperf,
		"peakJavaThreads":         plan.SourceHsperf,
		"peakThreads":             plan.SourceProc,
		"mappedBufferBytes":       plan.SourceProc,
		"cdsArchiveBytes":         plan.SourceProc,
		"cdsArchiveAnonBytes":     plan.SourceProc,
		"codeCacheUsedBytes":      plan.SourceJcmd,
		"directMemoryBytes":       plan.SourceNMT,
		"peakUncappedNativeBytes": plan.SourceNMT,
		"nmtPeakBytes":            plan.SourceNMT,
	}
	markUnmeasured(p, src)
	return src
}

// markUnmeasured marks unmeasured every field no source gave, and every
// zero a source gave for a region that is never truly empty (a JVM always
// has classes, threads, metaspace, code): that zero is a source that did
// not see it. Direct and mapped buffers and the CDS archive may be zero.
func markUnmeasured(p *plan.Profile, src map[string]string) {
	for _, f := range plan.ProfileFields() {
		if src[f] == plan.SourceEstimated || p.Measured(f) {
			continue
		}
		if src[f] == "" || !mayBeZero[f] {
			src[f] = plan.SourceUnmeasured
		}
	}
}

var mayBeZero = map[string]bool{
	"directMemoryBytes": true, "mappedBufferBytes": true,
	"cdsArchiveBytes": true, "cdsArchiveAnonBytes": true,
}
