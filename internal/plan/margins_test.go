package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"

	"gopkg.in/yaml.v3"
)

// heapbound's profile (testdata: one trial under the JDK's defaults at
// 1 GiB, 1 CPU, JDK 17): a 26.8 MiB live set and 28.6 MiB of measured
// non-heap. Between 64 and 72 MiB the plan's margins left the heap under
// the live set (68Mi: -Xmx24m, which stopped before it was ready with
// "Java heap space") while 64Mi, refused by the heap's floor, got the
// JDK's 32 MiB through Fit and held: a larger limit gave a worse plan.
// Under Fit the margins now give way: at every limit from 64 to 128 MiB
// the heap holds the live set.
func TestMarginsGiveWayToTheLiveSet(t *testing.T) {
	pr, err := LoadProfile("testdata/heapbound-default-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Limits: limits(68*mib, 1), JDK: jdk17, Profile: pr}
	p, _, err := Fit(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h := p.HeapBytes(); h != jdkDefaultHeap(68*mib, 1) {
		t.Errorf("68Mi under Fit: heap %s, want the JDK's own %s", size.Format(h), size.Format(jdkDefaultHeap(68*mib, 1)))
	}
	if !strings.Contains(p.Region(RegHeap).Why, "under the measured live set") {
		t.Errorf("68Mi: the heap's reason does not say the margins gave way: %s", p.Region(RegHeap).Why)
	}
	if p.Doubt == "" {
		t.Error("68Mi: no warning line, though the margins no longer fit")
	}
	// Compute and Strict keep the margins: the heap under the live set.
	c, err := Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	if h := c.HeapBytes(); h >= pr.LiveHeapBytes || h < liveFloor(pr.LiveHeapBytes) {
		t.Errorf("68Mi under Compute: heap %s, want the margins' heap, between 3/4 of the live set and the live set", size.Format(h))
	}
	// A cap of the user's counts whole where it is above what its region
	// measured: a 4 MiB direct cap leaves no room for the JDK's heap, while
	// the user's -Xss512k (the stack jvmfit picks anyway) changes nothing.
	for _, c := range []struct {
		opt     string
		jdkHeap bool
	}{{"-XX:MaxDirectMemorySize=4m", false}, {"-Xss512k", true}} {
		u, _, err := Fit(in, []string{c.opt})
		if err != nil {
			t.Fatal(err)
		}
		if got := u.HeapBytes() == jdkDefaultHeap(68*mib, 1); got != c.jdkHeap {
			t.Errorf("68Mi with the user's %s: heap %s, want the JDK's heap: %v", c.opt, size.Format(u.HeapBytes()), c.jdkHeap)
		}
	}
	for l := int64(64); l <= 128; l++ {
		p, _, err := Fit(withMem(in, l*mib), nil)
		if err != nil {
			t.Fatalf("%dMi: %v", l, err)
		}
		if h := p.HeapBytes(); h < pr.LiveHeapBytes {
			t.Errorf("%dMi under Fit: heap %s, under the live set %s", l, size.Format(h), size.Format(pr.LiveHeapBytes))
		}
	}
}

// Where the JDK's heap does not fit beside the measured non-heap and the
// margins leave the heap under the live set, Fit shrinks the margins to
// what the profile measured (lean.go): the heap is larger than Compute's,
// it fits beside the measured non-heap, the kernel and the headroom, the
// caps keep their margins, and Plan.Doubt says so. Compute keeps the
// margins, so the floor tune searches from does not move.
func TestFitShrinksTheMarginsWhereTheJDKHeapDoesNotFit(t *testing.T) {
	for _, c := range []struct {
		profile string
		limit   int64
	}{
		{"testdata/inventory-c1-profile.json", 120},
		{"testdata/catalog-appcds-c1-profile.json", 216},
	} {
		pr, err := LoadProfile(c.profile)
		if err != nil {
			t.Fatal(err)
		}
		in := Input{Limits: limits(c.limit*mib, 1), JDK: jdk17, Profile: pr}
		p, _, err := Fit(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Compute(in)
		if err != nil {
			t.Fatal(err)
		}
		if want.HeapBytes() >= pr.LiveHeapBytes {
			t.Fatalf("%s at %dMi: Compute's heap %s is not under the live set %s: the case tests nothing", c.profile, c.limit, size.Format(want.HeapBytes()), size.Format(pr.LiveHeapBytes))
		}
		beside := p.HeapBytes() + MeasuredNonHeap(pr) + p.Region(RegKernel).Bytes + p.Region(RegGC).Bytes + measuredHeadroom(c.limit*mib)
		switch {
		case p.HeapBytes() <= want.HeapBytes():
			t.Errorf("%s at %dMi: Fit's heap %s, want more than Compute's %s", c.profile, c.limit, size.Format(p.HeapBytes()), size.Format(want.HeapBytes()))
		case beside > c.limit*mib:
			t.Errorf("%s at %dMi: heap %s beside the measured non-heap and headroom needs %s", c.profile, c.limit, size.Format(p.HeapBytes()), size.Format(beside))
		case p.Doubt == "" || !strings.Contains(p.Doubt, "measured"):
			t.Errorf("%s at %dMi: no doubt line for the shrunk margins: %q", c.profile, c.limit, p.Doubt)
		}
		for _, k := range []string{"-XX:MaxMetaspaceSize=", "-XX:ReservedCodeCacheSize=", "-XX:MaxDirectMemorySize="} {
			if optionValue(p.Options, k) != optionValue(want.Options, k) {
				t.Errorf("%s at %dMi: %s%s, want Compute's cap %s", c.profile, c.limit, k, optionValue(p.Options, k), optionValue(want.Options, k))
			}
		}
	}
}

// The real JVM at 68Mi with that profile: the launcher's plan holds at
// heapbound's rate, not killed by the kernel (by hand: OK, cgroup peak
// 53.4 MiB, NMT 55.3 MiB with its own overhead; the old plan's -Xmx24m
// stopped before it was ready). The SLO leaves out what the CPU decides,
// not the memory: heapbound's p99 went over 100 ms on one shared CPU beside
// the package's other tests, and throughput, counted to the last answer,
// fell under 0.95 of the rate when a loaded machine held the last answers
// back a few hundred milliseconds. What the test holds instead: every
// request of the rate's schedule was sent and answered (success counts the
// answered ones, so a JVM that died or stalled fails it), with the JDK's
// 34 MiB heap, in a trial the kernel did not kill.
func TestMarginsGiveWayRealJVM(t *testing.T) {
	r := runReal(t, "heapbound", 68*mib, "testdata/heapbound-default-profile.json")
	if r.HeapMax != 34*mib {
		t.Errorf("heapbound at 68Mi ran with a %s heap, not the JDK's 34 MiB", size.Format(r.HeapMax))
	}
}

// realRun is what TestMarginsGiveWayRealJVM and TestLeanHeapRealJVM read
// of `jvmfit run --json`.
type realRun struct {
	Verdict, Kind string
	HeapMax       int64 `json:"heap_max_bytes"`
	Peak          int64 `json:"memory_peak_bytes"`
	Load          struct {
		Requests, Dropped int64
		Success           float64
	}
}

// runReal runs app once at limit with the launcher's plan from profile
// (as exec plans it), 5 s of warm-up and 10 s measured at the app's own
// rate, and fails the test unless the trial held every request of the
// rate's schedule under a cgroup peak within the limit.
func runReal(t *testing.T, app string, limit int64, profile string) realRun {
	t.Helper()
	bin, desc, javaPath := realTrial(t, app)
	const seconds = 10
	rate := appRate(t, desc)
	lim := size.Format(limit)
	cmd := exec.Command(bin, "run", "--app", desc, "--cpus", "1", "--memory", lim, "--jvm", "jvmfit", "--java", javaPath,
		"--profile", profile, "--warmup", "5s", "--duration", fmt.Sprintf("%ds", seconds),
		"--rate", fmt.Sprint(rate), "--slo", "success>=0.999,start<=60s", "--json",
		"--db", filepath.Join(t.TempDir(), "t.db"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("%s at %s with %s:\n%s", app, lim, profile, lastLines(stderr.String(), 8))
	if err != nil {
		t.Fatalf("%s at %s with %s did not hold: %v", app, lim, profile, err)
	}
	var r realRun
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("jvmfit run --json: %v\n%s", err, stdout.String())
	}
	t.Logf("%s %s, heap %s, peak %s, %d requests (%d dropped), success %.4f",
		r.Verdict, r.Kind, size.Format(r.HeapMax), size.Format(r.Peak), r.Load.Requests, r.Load.Dropped, r.Load.Success)
	if due := int64(rate * seconds); r.Load.Requests+r.Load.Dropped < due || r.Load.Requests < due*99/100 {
		t.Errorf("%d requests sent, %d dropped, of the %d that %s's rate schedules", r.Load.Requests, r.Load.Dropped, due, app)
	}
	if r.Peak <= 0 || r.Peak > limit {
		t.Errorf("cgroup peak %s, want a measured peak under the %s limit", size.Format(r.Peak), lim)
	}
	return r
}

// appRate is the rate an app's descriptor asks for.
func appRate(t *testing.T, desc string) float64 {
	t.Helper()
	b, err := os.ReadFile(desc)
	if err != nil {
		t.Fatal(err)
	}
	var a struct{ Rate float64 }
	if err := yaml.Unmarshal(b, &a); err != nil || a.Rate <= 0 {
		t.Fatalf("%s: no rate (%v)", desc, err)
	}
	return a.Rate
}
