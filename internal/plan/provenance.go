package plan

import (
	"fmt"
	"sort"
	"strings"
)

// Where a profile's figure came from: the value of Profile.Sources[field].
// A profile without Sources (every trial's, and hand-written ones) counts
// each non-zero field as measured.
const (
	SourceNMT        = "nmt"        // Native Memory Tracking (jcmd VM.native_memory)
	SourceHsperf     = "hsperf"     // the JVM's perf-data counters (hsperfdata)
	SourceProc       = "proc"       // /proc/PID (smaps, status) of the process
	SourceMicrometer = "micrometer" // Micrometer's jvm_* meters (Spring Boot, Quarkus, ...)
	SourceJMX        = "jmx"        // the JMX exporter's or client_java's jvm_* metrics
	SourceJcmd       = "jcmd"       // jcmd PID Compiler.codecache (the code heaps' high-water mark)
	SourceCAdvisor   = "cadvisor"   // container_memory_working_set_bytes beside the JVM's own figures
	SourceEstimated  = "estimated"  // derived from figures that do not measure it: shown, not planned from
	SourceUnmeasured = "unmeasured" // the source cannot see it: the field is 0 and the planner uses its default
)

var sources = map[string]bool{
	SourceNMT: true, SourceHsperf: true, SourceProc: true, SourceMicrometer: true,
	SourceJMX: true, SourceJcmd: true, SourceCAdvisor: true, SourceEstimated: true, SourceUnmeasured: true,
}

// fields are the JSON names of the measured figures Sources may
// name, each with its value in p.
func (p *Profile) fields() map[string]*int64 {
	return map[string]*int64{
		"loadedClasses": &p.LoadedClasses, "peakThreads": &p.PeakThreads,
		"peakJavaThreads":    &p.PeakJavaThreads,
		"codeCacheUsedBytes": &p.CodeCacheUsedBytes, "metaspaceUsedBytes": &p.MetaspaceUsedBytes,
		"classSpaceUsedBytes": &p.ClassSpaceUsedBytes, "directMemoryBytes": &p.DirectMemoryBytes,
		"mappedBufferBytes": &p.MappedBufferBytes, "liveHeapBytes": &p.LiveHeapBytes,
		"cdsArchiveBytes": &p.CDSArchiveBytes, "cdsArchiveAnonBytes": &p.CDSArchiveAnonBytes,
		"peakUncappedNativeBytes": &p.PeakUncappedNativeBytes,
	}
}

// ProfileFields lists the field names Sources may hold, sorted.
func ProfileFields() []string {
	var names []string
	for k := range (&Profile{}).fields() {
		names = append(names, k)
	}
	names = append(names, "nmtPeakBytes")
	sort.Strings(names)
	return names
}

// Measured says whether the planner may use field: it has a figure and its
// source measured it (not estimated, not unmeasured).
func (p *Profile) Measured(field string) bool {
	switch p.Sources[field] {
	case SourceEstimated, SourceUnmeasured:
		return false
	}
	if field == "nmtPeakBytes" {
		return len(p.NMTPeakBytes) > 0
	}
	v, ok := p.fields()[field]
	return ok && *v > 0
}

// Planned is the profile the planner reads: a copy in which every field
// whose source is estimated or unmeasured is zero, so that its region is
// planned as without a profile. A profile without Sources is returned as
// it is.
func (p *Profile) Planned() *Profile {
	if p == nil || len(p.Sources) == 0 {
		return p
	}
	q := *p
	for name, v := range q.fields() {
		if !q.Measured(name) {
			*v = 0
		}
	}
	if !q.Measured("nmtPeakBytes") {
		q.NMTPeakBytes = nil
	}
	return &q
}

// validateSources: known fields and sources only, and no figure for a
// field its source says it did not measure.
func (p *Profile) validateSources() error {
	known := p.fields()
	for field, src := range p.Sources {
		if _, ok := known[field]; !ok && field != "nmtPeakBytes" {
			return fmt.Errorf("sources names %q, which is not a profile field (fields: %s)", field, strings.Join(ProfileFields(), ", "))
		}
		if !sources[src] {
			return fmt.Errorf("sources[%q] is %q, not one of nmt, hsperf, proc, micrometer, jmx, jcmd, cadvisor, estimated, unmeasured", field, src)
		}
		if src != SourceUnmeasured {
			continue
		}
		if v, ok := known[field]; ok && *v != 0 || field == "nmtPeakBytes" && len(p.NMTPeakBytes) > 0 {
			return fmt.Errorf("%s has a figure but sources marks it unmeasured: remove the figure or name its source", field)
		}
	}
	return nil
}
