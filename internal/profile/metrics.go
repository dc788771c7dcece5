package profile

import (
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// A point is one metric sample at one instant of one JVM: a line of a
// scrape, or a Prometheus series' value at one step.
type point struct {
	name   string
	labels map[string]string
	value  float64
}

// reading is one instant's JVM figures from its metrics, with the source
// of each (plan.SourceMicrometer or plan.SourceJMX); a field missing
// from src was not in the metrics.
type reading struct {
	v   map[string]int64 // profile field (JSON name) → figure
	src map[string]string
	// What the native part is computed from: the JVM's committed regions.
	heapCommitted, metaCommitted, codeCommitted int64
	procRSS, rss, workingSet                    int64 // the process's RSS, the container's anon and working set; 0 = absent
}

// The metric names, by library. Micrometer's (Spring Boot Actuator,
// Quarkus, Micronaut, Helidon) carry area and id; client_java 0.x
// (simpleclient_hotspot, the JMX exporter up to 0.20) and 1.x (the JMX
// exporter from 1.0) carry pool.
var jvmNames = map[string]bool{
	"jvm_memory_used_bytes": true, "jvm_memory_committed_bytes": true,
	"jvm_gc_live_data_size_bytes": true, "jvm_threads_live_threads": true,
	"jvm_threads_peak_threads": true, "jvm_buffer_memory_used_bytes": true,
	"jvm_classes_loaded_classes": true,
	// client_java 0.x
	"jvm_memory_pool_bytes_used": true, "jvm_memory_pool_bytes_committed": true,
	"jvm_memory_bytes_committed": true, "jvm_classes_loaded": true,
	// client_java 1.x
	"jvm_memory_pool_used_bytes": true, "jvm_memory_pool_committed_bytes": true,
	"jvm_classes_currently_loaded": true,
	// both
	"jvm_memory_pool_collection_used_bytes": true, "jvm_threads_current": true,
	"jvm_threads_peak": true, "jvm_buffer_pool_used_bytes": true,
	"process_resident_memory_bytes": true,
}

// cAdvisor's container figures, joined to the JVM's by pod.
var containerNames = map[string]bool{
	"container_memory_working_set_bytes": true, "container_memory_rss": true,
}

// oldPools are the heap pools that hold the live set after a collection
// of the old generation.
var oldPools = map[string]bool{
	"G1 Old Gen": true, "Tenured Gen": true, "PS Old Gen": true, "CMS Old Gen": true,
	"ZHeap": true, "ZGC Old Generation": true, "Shenandoah": true, "Shenandoah Old Gen": true,
}

func isCodePool(id string) bool {
	return strings.HasPrefix(id, "CodeHeap ") || id == "Code Cache" || id == "CodeCache"
}

// read turns one instant's points into figures.
func read(pts []point) reading {
	r := reading{v: map[string]int64{}, src: map[string]string{}}
	set := func(field, src string, v float64) {
		r.v[field] += int64(v)
		r.src[field] = src
	}
	for _, p := range pts {
		id, area := p.labels["id"], p.labels["area"]
		pool := p.labels["pool"]
		mm, jmx := plan.SourceMicrometer, plan.SourceJMX
		switch p.name {
		// Micrometer: pools by id (client_java 1.x has jvm_memory_used_bytes by area only).
		case "jvm_memory_used_bytes":
			if id != "" {
				poolUsed(set, mm, id, p.value)
			}
		case "jvm_memory_committed_bytes":
			if id != "" {
				r.committed(id, area == "heap", p.value)
			} else if area == "heap" {
				r.heapCommitted = int64(p.value)
			}
		case "jvm_gc_live_data_size_bytes":
			if p.value > 0 { // 0 until the first old or concurrent collection
				set("liveHeapBytes", mm, p.value)
			}
		case "jvm_threads_peak_threads":
			set("peakJavaThreads", mm, p.value)
		case "jvm_buffer_memory_used_bytes":
			buffer(set, mm, id, p.value)
		case "jvm_classes_loaded_classes":
			set("loadedClasses", mm, p.value)

		// client_java and the JMX exporter: pools by pool.
		case "jvm_memory_pool_bytes_used", "jvm_memory_pool_used_bytes":
			poolUsed(set, jmx, pool, p.value)
		case "jvm_memory_pool_bytes_committed", "jvm_memory_pool_committed_bytes":
			r.committed(pool, false, p.value)
		case "jvm_memory_bytes_committed":
			if area == "heap" {
				r.heapCommitted = int64(p.value)
			}
		case "jvm_memory_pool_collection_used_bytes":
			if oldPools[pool] && p.value > 0 {
				set("liveHeapBytes", jmx, p.value)
			}
		case "jvm_threads_peak":
			set("peakJavaThreads", jmx, p.value)
		case "jvm_buffer_pool_used_bytes":
			buffer(set, jmx, pool, p.value)
		case "jvm_classes_loaded", "jvm_classes_currently_loaded":
			set("loadedClasses", jmx, p.value)
		case "process_resident_memory_bytes":
			r.procRSS = int64(p.value)

		case "container_memory_rss":
			r.rss = int64(p.value)
		case "container_memory_working_set_bytes":
			r.workingSet = int64(p.value)
		}
	}
	return r
}

func poolUsed(set func(string, string, float64), src, pool string, v float64) {
	switch {
	case pool == "Metaspace":
		set("metaspaceUsedBytes", src, v)
	case pool == "Compressed Class Space":
		set("classSpaceUsedBytes", src, v)
	case isCodePool(pool):
		set("codeCacheUsedBytes", src, v)
	}
}

func buffer(set func(string, string, float64), src, pool string, v float64) {
	switch {
	case pool == "direct":
		set("directMemoryBytes", src, v)
	case strings.HasPrefix(pool, "mapped"): // "mapped", "mapped - 'non-volatile memory'"
		set("mappedBufferBytes", src, v)
	}
}

// committed adds a pool's committed bytes to its region. Micrometer
// gives the heap pools one by one (area="heap").
func (r *reading) committed(pool string, heap bool, v float64) {
	switch {
	case heap:
		r.heapCommitted += int64(v)
	case pool == "Metaspace":
		r.metaCommitted = int64(v)
	case isCodePool(pool):
		r.codeCommitted += int64(v)
	}
}

// hasJVM: the instant had JVM memory figures at all.
func (r reading) hasJVM() bool {
	return r.v["metaspaceUsedBytes"] > 0 || r.heapCommitted > 0
}

// native is what the process uses beyond the JVM's own regions: resident
// memory less the heap, metaspace and code cache committed and the
// direct buffers, as a trial measures it from NMT. From cAdvisor's
// container_memory_rss (anonymous memory, like the trial's RssAnon) it
// is measured; from a working set or a process's RSS, which hold file
// pages too (the JDK's libraries, the CDS archive), it is an estimate.
func (r reading) native(cadvisor bool) (int64, string) {
	base, src := r.procRSS, plan.SourceEstimated
	switch {
	case cadvisor && r.rss > 0:
		base, src = r.rss, plan.SourceCAdvisor
	case cadvisor && r.workingSet > 0:
		base = r.workingSet
	}
	if base == 0 || r.heapCommitted == 0 {
		return 0, plan.SourceUnmeasured
	}
	n := base - r.heapCommitted - r.metaCommitted - r.codeCommitted - r.v["directMemoryBytes"]
	return max(n, 0), src
}
