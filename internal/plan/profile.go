package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// ProfileVersion is the profile format this jvmfit writes. A file without a
// version is the older hand-written form (version 0) and still reads.
const ProfileVersion = 1

// Profile is the measured needs of one app, written as JSON by
// `jvmfit run --profile-out` or `jvmfit profile`, or by hand:
//
//	{"version": 1, "app": "petclinic", "loadedClasses": 14500,
//	 "peakThreads": 42, "codeCacheUsedBytes": 31457280,
//	 "metaspaceUsedBytes": 83886080, "classSpaceUsedBytes": 10485760,
//	 "directMemoryBytes": 4194304, "liveHeapBytes": 41943040}
//
// Every field is optional; a zero field keeps the planner's default for its
// region. Figures are peaks seen under load, not reservations.
// docs/launcher.md says how each is measured.
type Profile struct {
	Version int    `json:"version,omitempty"`
	App     string `json:"app,omitempty"`

	LoadedClasses int64 `json:"loadedClasses,omitempty"`
	PeakThreads   int64 `json:"peakThreads,omitempty"` // the process's threads (/proc): every one has a stack
	// PeakJavaThreads is the peak of the threads the JVM counts as Java
	// threads (hsperf java.threads.livePeak, JMX's peak thread count): what
	// a metrics endpoint sees; without peakThreads the planner adds the
	// VM's own threads to it (nonheap.go).
	PeakJavaThreads     int64 `json:"peakJavaThreads,omitempty"`
	CodeCacheUsedBytes  int64 `json:"codeCacheUsedBytes,omitempty"`
	MetaspaceUsedBytes  int64 `json:"metaspaceUsedBytes,omitempty"`
	ClassSpaceUsedBytes int64 `json:"classSpaceUsedBytes,omitempty"`
	DirectMemoryBytes   int64 `json:"directMemoryBytes,omitempty"`
	// MappedBufferBytes is the peak of mapped NIO buffers (MappedByteBuffer),
	// which live outside the heap and outside MaxDirectMemorySize.
	MappedBufferBytes int64 `json:"mappedBufferBytes,omitempty"`
	// LiveHeapBytes is the heap used right after a full GC (seed 001's
	// live set).
	LiveHeapBytes int64 `json:"liveHeapBytes,omitempty"`
	// CDSArchiveBytes is the resident size of the mapped CDS archive or AOT
	// cache: resident, charged to the container, and in no NMT cap.
	CDSArchiveBytes int64 `json:"cdsArchiveBytes,omitempty"`
	// CDSArchiveAnonBytes is the part of CDSArchiveBytes the JVM wrote to
	// (copy-on-write, anonymous): the rest is clean page cache of the
	// archive's file, which the kernel reclaims before it kills (0: not
	// measured, the archive is counted whole).
	CDSArchiveAnonBytes int64 `json:"cdsArchiveAnonBytes,omitempty"`
	// PeakUncappedNativeBytes is the peak over the trial of resident
	// anonymous memory minus heap, metaspace, code cache and direct memory:
	// what no JVM option caps (GC and compiler work areas, symbols, malloc
	// arenas, thread stacks).
	PeakUncappedNativeBytes int64 `json:"peakUncappedNativeBytes,omitempty"`
	// NMTPeakBytes is the peak committed bytes per NMT category over the
	// trial ("Class", "Thread", "Compiler", ...).
	NMTPeakBytes map[string]int64 `json:"nmtPeakBytes,omitempty"`

	// Sources says, per field (its JSON name), where its figure came from:
	// nmt, hsperf, proc, micrometer, jmx, cadvisor, estimated or
	// unmeasured (provenance.go). A field it does not name, or a profile
	// without it (a trial's), is measured when it is non-zero. The planner
	// treats estimated and unmeasured fields as absent (Planned).
	Sources map[string]string `json:"sources,omitempty"`
	// Source is where the profile was taken: "trial", "pid", "scrape" or
	// "prometheus" ("" = a trial's or a hand-written one); From the pid,
	// URL or selector, Window its duration or range.
	Source string `json:"source,omitempty"`
	From   string `json:"from,omitempty"`
	Window string `json:"window,omitempty"`

	// What it was measured under.
	JDKVersion       int      `json:"jdkVersion,omitempty"`
	JDKVendor        string   `json:"jdkVendor,omitempty"`
	Options          []string `json:"options,omitempty"`
	MemoryLimitBytes int64    `json:"memoryLimitBytes,omitempty"`
	CPUs             float64  `json:"cpus,omitempty"`
	Rate             float64  `json:"rate,omitempty"`
	Trial            int64    `json:"trial,omitempty"` // the stored trial's id, if any
}

// LoadProfile reads and checks a profile file.
func LoadProfile(path string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read profile: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("bad profile %s: %v (see docs/launcher.md for the format)", path, err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("bad profile %s: %w", path, err)
	}
	return &p, nil
}

// Validate rejects a newer format and negative or absurd figures.
func (p *Profile) Validate() error {
	if p.Version > ProfileVersion || p.Version < 0 {
		return fmt.Errorf("version %d is not one this jvmfit reads (it reads up to %d): upgrade jvmfit or re-measure the profile", p.Version, ProfileVersion)
	}
	for name, v := range map[string]int64{
		"loadedClasses": p.LoadedClasses, "peakThreads": p.PeakThreads, "peakJavaThreads": p.PeakJavaThreads,
		"codeCacheUsedBytes": p.CodeCacheUsedBytes, "metaspaceUsedBytes": p.MetaspaceUsedBytes,
		"classSpaceUsedBytes": p.ClassSpaceUsedBytes, "directMemoryBytes": p.DirectMemoryBytes,
		"mappedBufferBytes": p.MappedBufferBytes, "liveHeapBytes": p.LiveHeapBytes,
		"cdsArchiveBytes": p.CDSArchiveBytes, "cdsArchiveAnonBytes": p.CDSArchiveAnonBytes, "peakUncappedNativeBytes": p.PeakUncappedNativeBytes,
		"memoryLimitBytes": p.MemoryLimitBytes,
	} {
		if v < 0 {
			return fmt.Errorf("%s is negative (%d)", name, v)
		}
	}
	for cat, v := range p.NMTPeakBytes {
		if v < 0 {
			return fmt.Errorf("nmtPeakBytes[%q] is negative (%d)", cat, v)
		}
	}
	if p.CDSArchiveAnonBytes > p.CDSArchiveBytes {
		return fmt.Errorf("cdsArchiveAnonBytes %d is more than cdsArchiveBytes %d: the written pages are part of the archive's resident size", p.CDSArchiveAnonBytes, p.CDSArchiveBytes)
	}
	if p.PeakThreads > 100000 {
		return fmt.Errorf("peakThreads %d is not plausible", p.PeakThreads)
	}
	if p.CPUs < 0 || p.Rate < 0 {
		return fmt.Errorf("cpus and rate must not be negative")
	}
	return p.validateSources()
}
