//go:build linux

package hsperf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/hsperf/jvmtest"
)

const xmx = 96 << 20

var jdks = []struct {
	version int
	java    string
}{
	{17, jvmtest.Java17}, {25, jvmtest.Java25}, {11, jvmtest.Java11}, {21, jvmtest.Java21},
}

var gcs = []string{"Serial", "Parallel", "G1", "Z", "Shenandoah"}

func read(t *testing.T, pid int) (*hsperf.Snapshot, []byte) {
	t.Helper()
	path := hsperf.PathFor(pid)
	s, err := hsperf.ReadFile(path)
	if err != nil {
		t.Fatalf("read perf data: %v", err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, raw
}

// TestRealJVMs runs a small program on every installed JDK and collector and
// checks the view against what the test made the JVM do. With
// JVMFIT_CAPTURE=1 it also refreshes the fixtures in testdata.
func TestRealJVMs(t *testing.T) {
	for _, jdk := range jdks {
		for _, gc := range gcs {
			if testing.Short() && (jdk.version < 17 || (gc != "Serial" && gc != "G1")) {
				continue
			}
			t.Run(fmt.Sprintf("jdk%d-%s", jdk.version, gc), func(t *testing.T) {
				checkRealJVM(t, jdk.java, jdk.version, gc)
			})
		}
	}
}

func checkRealJVM(t *testing.T, java string, version int, gc string) {
	p := jvmtest.Start(t, java, "-XX:+UnlockExperimentalVMOptions", "-XX:+Use"+gc+"GC",
		fmt.Sprintf("-Xmx%dm", xmx>>20), "-XX:+UsePerfData")
	s1, _ := read(t, p.Pid)
	j1 := s1.JVM()

	p.Do(t, "threads 4")
	p.Do(t, "alloc 24")
	p.Do(t, "gc")
	// Shenandoah and ZGC refresh some counters on their own schedule, so
	// allow them a moment to show the retained data.
	s2, raw := settle(t, p.Pid, func(j hsperf.JVM) bool { return j.HeapUsed >= 24<<20 })
	j2 := s2.JVM()

	if j2.HeapMax != xmx {
		t.Errorf("heap max %d, want -Xmx %d (young max %d, old max %d, policy %q)", j2.HeapMax, xmx, j2.Young.Max, j2.Old.Max, j2.Policy)
	}
	if version == 11 && gc == "Z" {
		// JDK 11's experimental ZGC publishes no collector counters.
		if len(j2.Collectors) != 0 {
			t.Errorf("JDK 11 ZGC collectors %+v", j2.Collectors)
		}
	} else if j2.OldGCs <= j1.OldGCs {
		t.Errorf("old GCs %d → %d after System.gc(); collectors %+v", j1.OldGCs, j2.OldGCs, j2.Collectors)
	}
	if j2.GCTime < 0 || j2.GCTime > time.Minute || (len(j2.Collectors) > 0 && j2.GCTime == 0) {
		t.Errorf("GC time %v", j2.GCTime)
	}
	if j2.Threads < j1.Threads+4 {
		t.Errorf("threads %d → %d after starting 4", j1.Threads, j2.Threads)
	}
	if j2.HeapUsed < 24<<20 {
		t.Errorf("heap used %d after retaining 24 MiB", j2.HeapUsed)
	}
	if gc == "Serial" || gc == "Parallel" || gc == "G1" {
		if j2.Old.Used < 24<<20 {
			t.Errorf("old used %d after a full GC with 24 MiB retained", j2.Old.Used)
		}
	}
	if j2.HeapCommitted < j2.HeapUsed || j2.HeapCommitted > xmx+(1<<20) {
		t.Errorf("heap committed %d, used %d, max %d", j2.HeapCommitted, j2.HeapUsed, xmx)
	}
	if j2.MetaspaceUsed < 100<<10 || j2.MetaspaceCommitted < j2.MetaspaceUsed {
		t.Errorf("metaspace used %d committed %d", j2.MetaspaceUsed, j2.MetaspaceCommitted)
	}
	if j2.ClassesLoaded < 300 {
		t.Errorf("classes loaded %d", j2.ClassesLoaded)
	}
	if age := time.Since(j2.VMStart); age < 0 || age > 5*time.Minute {
		t.Errorf("VM start %v is %v ago", j2.VMStart, age)
	}
	if j2.Frequency <= 0 || j2.VMInit <= 0 || j2.VMInit > time.Minute {
		t.Errorf("frequency %d, init %v", j2.Frequency, j2.VMInit)
	}
	if os.Getenv("JVMFIT_CAPTURE") == "1" {
		name := filepath.Join("testdata", fmt.Sprintf("jdk%d-%s-xmx%dm.hsperf", version, gc, xmx>>20))
		if err := os.WriteFile(name, raw[:s2.Used], 0o644); err != nil {
			t.Fatal(err)
		}
	}

	p.Do(t, "free")
	p.Do(t, "gc")
	s3, _ := settle(t, p.Pid, func(j hsperf.JVM) bool { return j.HeapUsed <= j2.HeapUsed-16<<20 })
	if j3 := s3.JVM(); j3.HeapUsed > j2.HeapUsed-16<<20 {
		t.Errorf("heap used %d → %d after dropping 24 MiB and a GC", j2.HeapUsed, j3.HeapUsed)
	}
}

// settle re-reads the perf data until ok holds or two seconds pass, and
// returns the last read.
func settle(t *testing.T, pid int, ok func(hsperf.JVM) bool) (*hsperf.Snapshot, []byte) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		s, raw := read(t, pid)
		if ok(s.JVM()) || time.Now().After(deadline) {
			return s, raw
		}
		time.Sleep(50 * time.Millisecond)
	}
}
