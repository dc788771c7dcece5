package hsperf

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The fixtures were captured by TestRealJVMs (JVMFIT_CAPTURE=1) from
// jdkN-GC-xmxMm processes after: 4 threads started, 24 MiB retained, System.gc().
var fixtureName = regexp.MustCompile(`^jdk(\d+)-(\w+)-xmx(\d+)m\.hsperf$`)

// What each JDK calls its collectors: names changed in JDK 17, indexes did not.
var wantCollector0 = map[string]string{
	"11-Serial": "Copy", "11-Parallel": "PSScavenge", "11-G1": "G1 incremental collections",
	"17-Serial": "Serial young collection pauses", "17-G1": "G1 young collection pauses",
	"25-Parallel": "Parallel young collection pauses", "25-Z": "ZGC minor collection pauses",
	"17-Shenandoah": "Shenandoah partial",
}

func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.hsperf")
	if len(files) < 16 {
		t.Fatalf("%d fixtures in testdata, want 20 (4 JDKs × 5 collectors)", len(files))
	}
	for _, f := range files {
		m := fixtureName.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			t.Errorf("unexpected fixture %s", f)
			continue
		}
		version, gc := m[1], m[2]
		mb, _ := strconv.Atoi(m[3])
		s, err := ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		j := s.JVM()
		if j.HeapMax != int64(mb)<<20 {
			t.Errorf("%s: heap max %d, want %d MiB", f, j.HeapMax, mb)
		}
		if !strings.HasPrefix(j.Version, version+".") && !strings.HasPrefix(j.Version, version+"+") {
			t.Errorf("%s: vm version %q", f, j.Version)
		}
		if j.HeapUsed < 24<<20 || j.HeapCommitted < j.HeapUsed {
			t.Errorf("%s: heap used %d committed %d, 24 MiB retained", f, j.HeapUsed, j.HeapCommitted)
		}
		if j.Threads < 5 || j.ClassesLoaded < 300 || j.MetaspaceUsed <= 0 || j.VMStart.IsZero() {
			t.Errorf("%s: threads %d classes %d metaspace %d start %v", f, j.Threads, j.ClassesLoaded, j.MetaspaceUsed, j.VMStart)
		}
		if !(version == "11" && gc == "Z") && j.OldGCs < 1 {
			t.Errorf("%s: no old GC counted after System.gc(): %+v", f, j.Collectors)
		}
		if want, ok := wantCollector0[version+"-"+gc]; ok {
			if len(j.Collectors) == 0 || j.Collectors[0].Name != want || j.Collectors[0].Kind != CollectorYoung {
				t.Errorf("%s: collectors %+v, want #0 %q (young)", f, j.Collectors, want)
			}
		}
		switch gc {
		case "Serial", "Parallel":
			if j.Young.Max+j.Old.Max != j.HeapMax || j.Old.Used < 24<<20 {
				t.Errorf("%s: generations %+v %+v", f, j.Young, j.Old)
			}
		case "G1":
			if len(j.Collectors) != 3 || j.Collectors[2].Kind != CollectorConcurrent {
				t.Errorf("%s: G1 collectors %+v", f, j.Collectors)
			}
		}
	}
}

// Reading a fixture must give the same answer as the parser on its bytes:
// ReadFile adds nothing but retries.
func TestReadFileMatchesParse(t *testing.T) {
	f := "testdata/jdk17-G1-xmx96m.hsperf"
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Parse(b)
	r, err := ReadFile(f)
	if err != nil || a.Len() != r.Len() || a.Len() < 150 {
		t.Fatalf("parse %d entries, read %d: %v", a.Len(), r.Len(), err)
	}
}
