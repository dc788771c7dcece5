package profile

import (
	"os"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

func readFixture(t *testing.T, name string) reading {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := parseText(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return read(pts)
}

// client_java 0.x names (the JMX exporter's up to 0.20): the live set is
// the old pool's use after its last collection, code the code heaps.
func TestClientJavaNames(t *testing.T) {
	r := readFixture(t, "client_java-0.x.txt")
	want := map[string]int64{"metaspaceUsedBytes": 40000000, "classSpaceUsedBytes": 5000000,
		"codeCacheUsedBytes": 12000000, "liveHeapBytes": 25000000, "peakJavaThreads": 35,
		"directMemoryBytes": 414142, "mappedBufferBytes": 0, "loadedClasses": 8543}
	for f, v := range want {
		if r.v[f] != v || r.src[f] != plan.SourceJMX {
			t.Errorf("%s = %d (%s), want %d (jmx)", f, r.v[f], r.src[f], v)
		}
	}
	// A process's RSS holds file pages: its native is an estimate.
	n, src := r.native(false)
	if want := int64(260000000 - 134217728 - 42000000 - 15000000 - 414142); n != want || src != plan.SourceEstimated {
		t.Errorf("native %d (%s), want %d (estimated)", n, src, want)
	}
}

// client_java 1.x names, as the panel's metrics agent (workloads/metrics-agent)
// serves them from a real JDK 17: the fixture is its output. No old
// collection yet: the old pool's collection use is 0, which is no live set.
func TestClientJava1xNames(t *testing.T) {
	r := readFixture(t, "client_java_1x.txt")
	want := map[string]int64{"metaspaceUsedBytes": 12179376, "classSpaceUsedBytes": 1487000,
		"codeCacheUsedBytes": 1214720 + 331776 + 1544960, "peakJavaThreads": 11,
		"directMemoryBytes": 16384, "mappedBufferBytes": 0, "loadedClasses": 3184}
	for f, v := range want {
		if r.v[f] != v || r.src[f] != plan.SourceJMX {
			t.Errorf("%s = %d (%s), want %d (jmx)", f, r.v[f], r.src[f], v)
		}
	}
	if _, ok := r.v["liveHeapBytes"]; ok {
		t.Errorf("live set %d from a collection use of 0: want none", r.v["liveHeapBytes"])
	}
	if r.heapCommitted != 383188992 {
		t.Errorf("heap committed %d, want jvm_memory_committed_bytes{area=\"heap\"} 383188992", r.heapCommitted)
	}
}

// Micrometer's names in OpenMetrics (# UNIT, # EOF, an exemplar).
func TestMicrometerOpenMetrics(t *testing.T) {
	r := readFixture(t, "micrometer-openmetrics.txt")
	want := map[string]int64{"metaspaceUsedBytes": 35000000, "classSpaceUsedBytes": 4500000,
		"codeCacheUsedBytes": 9000000, "liveHeapBytes": 19000000, "peakJavaThreads": 25,
		"directMemoryBytes": 81920, "loadedClasses": 9876}
	for f, v := range want {
		if r.v[f] != v || r.src[f] != plan.SourceMicrometer {
			t.Errorf("%s = %d (%s), want %d (micrometer)", f, r.v[f], r.src[f], v)
		}
	}
	if r.heapCommitted != 58000000 {
		t.Errorf("heap committed %d, want the pools' sum 58000000", r.heapCommitted)
	}
	// No resident size in Micrometer's meters: native is unmeasured, and
	// the profile says so rather than inventing it.
	p := peaks([]reading{r}, false)
	if p.Sources["peakUncappedNativeBytes"] != plan.SourceUnmeasured || p.PeakUncappedNativeBytes != 0 {
		t.Errorf("native %d (%s), want unmeasured", p.PeakUncappedNativeBytes, p.Sources["peakUncappedNativeBytes"])
	}
	for _, f := range []string{"peakThreads", "cdsArchiveBytes", "nmtPeakBytes"} {
		if p.Sources[f] != plan.SourceUnmeasured {
			t.Errorf("%s: source %q, want unmeasured", f, p.Sources[f])
		}
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Over a window each field keeps its peak; a live set of 0 (no old
// collection yet) is no figure.
func TestPeaksOverAWindow(t *testing.T) {
	a := readFixture(t, "micrometer-openmetrics.txt")
	b := readFixture(t, "micrometer-openmetrics.txt")
	b.v["metaspaceUsedBytes"], b.v["peakJavaThreads"] = 36000000, 24
	p := peaks([]reading{a, b}, false)
	if p.MetaspaceUsedBytes != 36000000 || p.PeakJavaThreads != 25 {
		t.Errorf("metaspace %d, threads %d: want each field's peak", p.MetaspaceUsedBytes, p.PeakJavaThreads)
	}
	pts, _ := parseText("x", []byte("jvm_memory_used_bytes{area=\"nonheap\",id=\"Metaspace\"} 1e7\njvm_gc_live_data_size_bytes 0\n"))
	if q := peaks([]reading{read(pts)}, false); q.Sources["liveHeapBytes"] != plan.SourceUnmeasured {
		t.Errorf("a live data size of 0 gave %q, want unmeasured", q.Sources["liveHeapBytes"])
	}
}

// The container's anonymous memory (cAdvisor's container_memory_rss)
// measures native; its working set alone, with file pages, estimates it.
func TestNativeFromCAdvisor(t *testing.T) {
	r := readFixture(t, "micrometer-openmetrics.txt")
	r.rss, r.workingSet = 150000000, 180000000
	n, src := r.native(true)
	if want := int64(150000000 - 58000000 - 36000000 - 0 - 81920); n != want || src != plan.SourceCAdvisor {
		t.Errorf("native %d (%s), want %d (cadvisor)", n, src, want)
	}
	r.rss = 0
	if _, src := r.native(true); src != plan.SourceEstimated {
		t.Errorf("from the working set: %s, want estimated", src)
	}
}

func TestSelector(t *testing.T) {
	if m, err := selectorMatchers(` {app="orders", env!="dev"} `); err != nil || m != `,app="orders", env!="dev"` {
		t.Errorf("got %q, %v", m, err)
	}
	for _, bad := range []string{`app="orders"`, `{}`, `{__name__="x"}`} {
		if _, err := selectorMatchers(bad); !IsBadInput(err) {
			t.Errorf("%q: %v, want a bad-input error", bad, err)
		}
	}
}

// A real Spring Boot 3.5 /actuator/prometheus answer (greet-spring,
// Micrometer 1.15, OpenMetrics types among the others' families).
func TestSpringBootEndpoint(t *testing.T) {
	r := readFixture(t, "micrometer-spring.txt")
	want := map[string]int64{"metaspaceUsedBytes": 35768800, "classSpaceUsedBytes": 4718024,
		"codeCacheUsedBytes": 1287808 + 1663360 + 7860096, "peakJavaThreads": 22, "loadedClasses": 8111, "directMemoryBytes": 18432}
	for f, v := range want {
		if r.v[f] != v || r.src[f] != plan.SourceMicrometer {
			t.Errorf("%s = %d (%s), want %d (micrometer)", f, r.v[f], r.src[f], v)
		}
	}
	// Before any old collection Micrometer's live data size is 0: no figure.
	if _, ok := r.v["liveHeapBytes"]; ok {
		t.Errorf("live set %d from a live data size of 0", r.v["liveHeapBytes"])
	}
}
