package tune

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

var testProfile = &plan.Profile{Version: 1, LiveHeapBytes: 20 * tmib, MetaspaceUsedBytes: 28 * tmib,
	ClassSpaceUsedBytes: 6 * tmib, CodeCacheUsedBytes: 8 * tmib, PeakThreads: 25}

func names(cs []Candidate) []string {
	var n []string
	for _, c := range cs {
		n = append(n, c.Name)
	}
	return n
}

func TestTuneCandidatesKnobs(t *testing.T) {
	all, err := Candidates(plan.Footprint, 1, 17, testProfile, "/arc")
	if err != nil {
		t.Fatal(err)
	}
	// The launcher's own plans come first, with no options of their own:
	// with the profile (the incumbent tune starts from) and without.
	if len(all) < 2 || all[0].Name != LauncherName || !all[0].Launcher || all[0].NoProfile || all[0].Options != nil ||
		all[1].Name != LauncherNoProfileName || !all[1].NoProfile || all[1].Options != nil {
		t.Fatalf("the first two candidates %+v; want the launcher's plans", all[:2])
	}
	one := all[2:]
	want := []string{"serial-c1", "serial-tiered", "parallel-c1", "parallel-tiered", "serial-c1-heap1.5x",
		"serial-c1-planner", "serial-c1-noshare", "serial-c1-appcds", "serial-c1-lazyjit", "serial-c1-ccs"}
	if !slices.Equal(names(one), want) {
		t.Errorf("footprint, 1 CPU, JDK 17: %v\nwant %v", names(one), want)
	}
	first := strings.Join(one[0].Options, " ")
	for _, o := range []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xss256k",
		"-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20"} {
		if !strings.Contains(first+" ", o+" ") {
			t.Errorf("serial-c1 lacks %s: %s", o, first)
		}
	}
	// Footprint leaves the heap to the launcher (it follows the limit
	// down to the live set), and every candidate leaves metaspace and the
	// code cache to the launcher, which sizes them from the profile
	// measured under the candidate's own options. (The class space lever
	// sizes its reservation, levers_test.go.)
	for _, c := range one {
		if c.Name == "serial-c1-ccs" {
			continue
		}
		for _, o := range c.Options {
			if strings.Contains(o, "Metaspace") || strings.Contains(o, "ClassSpace") || strings.Contains(o, "CodeCache") ||
				strings.HasPrefix(o, "-Xmx") && c.Name != "serial-c1-heap1.5x" {
				t.Errorf("%s sets %s", c.Name, o)
			}
		}
	}
	if !slices.Contains(one[4].Options, "-Xmx30m") {
		t.Errorf("heap variant: %v; want -Xmx 1.5x the 20 MiB live set", one[4].Options)
	}
	if o := strings.Join(one[5].Options, " "); o != "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1" {
		t.Errorf("planner variant: %s; want only the GC and compiler", o)
	}
	if !slices.Contains(one[1].Options, "-XX:TieredStopAtLevel=4") {
		t.Errorf("serial-tiered: %v; want tiered said explicitly, or the launcher picks C1 in a small container", one[1].Options)
	}
	if ns := strings.Join(one[6].Options, " "); strings.Contains(ns, "Metaspace") || strings.Contains(ns, "ClassSpace") || !strings.HasSuffix(ns, "-Xshare:off") {
		t.Errorf("noshare: %s; want metaspace left to the planner (the JDK's classes load into it without CDS)", ns)
	}
	small := *testProfile
	small.LiveHeapBytes = 2 * tmib // 2x and 3x both round up to the 8 MiB floor
	if cs, _ := Candidates(plan.Balanced, 1, 17, &small, "/arc"); slices.Contains(names(cs), "serial-tiered-heap3x") {
		t.Errorf("%v: the heap variant has the same options as serial-tiered", names(cs))
	}
	cds := one[7]
	if !slices.Contains(cds.Options, "-XX:SharedArchiveFile=/arc/serial-c1.jsa") || !slices.Contains(cds.Training, "-XX:ArchiveClassesAtExit=/arc/serial-c1.jsa") {
		t.Errorf("app CDS: %+v", cds)
	}

	lazy := one[8]
	if !slices.Equal(lazy.Options[:len(one[0].Options)], one[0].Options) || !slices.Contains(lazy.Options, "-XX:Tier3InvocationThreshold=2000") ||
		!slices.Contains(lazy.Options, "-XX:Tier3BackEdgeThreshold=600000") {
		t.Errorf("lazy JIT: %v; want serial-c1's options and C1's thresholds tenfold", lazy.Options)
	}
	if bal, _ := Candidates(plan.Balanced, 1, 17, testProfile, "/arc"); slices.ContainsFunc(names(bal), func(s string) bool { return strings.HasSuffix(s, "-lazyjit") }) {
		t.Errorf("balanced: %v; the lazy JIT is a variant of a C1 first pair only (tiered's thresholds also delay C2)", names(bal))
	}

	two, _ := Candidates(plan.Footprint, 2, 25, testProfile, "/arc")
	n := names(two)
	if !slices.Contains(n, "g1-c1") || !slices.Contains(n, "g1-tiered") || !slices.Contains(n, "serial-c1-aot") {
		t.Fatalf("footprint, 2 CPUs, JDK 25: %v; want G1 and the AOT cache", n)
	}
	aot := two[slices.Index(n, "serial-c1-aot")]
	if !slices.Contains(aot.Options, "-XX:AOTCache=/arc/serial-c1.aot") || !slices.Contains(aot.Training, "-XX:AOTCacheOutput=/arc/serial-c1.aot") {
		t.Errorf("AOT: %+v", aot)
	}
	if g1 := two[slices.Index(n, "g1-tiered")]; !slices.Contains(g1.Options, "-XX:ParallelGCThreads=2") {
		t.Errorf("g1-tiered: %v", g1.Options)
	}

	tp, _ := Candidates(plan.Throughput, 1, 17, testProfile, "/arc")
	tp = tp[2:]
	if tp[0].Name != "parallel-tiered" || slices.ContainsFunc(tp[0].Options, func(o string) bool { return strings.HasPrefix(o, "-Xss") }) ||
		!slices.Contains(tp[0].Options, "-Xmx60m") {
		t.Errorf("throughput first candidate: %+v; want parallel-tiered, 3x the live set, the JVM's stacks", tp[0])
	}

	bare, _ := Candidates(plan.Balanced, 1, 17, nil, "/arc")
	for _, c := range bare {
		for _, o := range c.Options {
			if strings.HasPrefix(o, "-Xmx") || strings.Contains(o, "Metaspace") || strings.Contains(o, "CodeCache") {
				t.Errorf("%s sizes %s without a profile", c.Name, o)
			}
		}
	}
	if slices.ContainsFunc(names(bare), func(s string) bool { return strings.Contains(s, "heap") }) {
		t.Errorf("a heap variant without a live set: %v", names(bare))
	}
	if _, err := Candidates("speed", 1, 17, nil, ""); err == nil {
		t.Error("unknown goal accepted")
	}
}

// TestTuneCandidatesRealJVM starts each candidate's JVM (and its training
// run) on JDK 17 and 25: every option must be accepted, and an archive a
// training run wrote must be the one the candidate maps (-Xshare:on and
// -XX:AOTMode=on make a missing or unusable one fatal).
func TestTuneCandidatesRealJVM(t *testing.T) {
	for _, j := range []struct {
		java    string
		version int
	}{{"/usr/lib/jvm/java-17-openjdk-amd64/bin/java", 17}, {"/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", 25}} {
		prereq.Java(t, j.java)
		dir := t.TempDir()
		cs, err := Candidates(plan.Footprint, 2, j.version, testProfile, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			strict := []string{}
			if c.Training != nil {
				javaVersion(t, j.java, c.Name+" training", c.Training)
				strict = []string{"-Xshare:on"}
				if strings.HasSuffix(c.Name, "-aot") {
					strict = []string{"-XX:AOTMode=on"}
				}
			}
			javaVersion(t, j.java, c.Name, append(append([]string{}, c.Options...), strict...))
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) == 0 {
			t.Errorf("JDK %d: no archive written", j.version)
		}
	}
}

// TestTuneLazyJITCompilesLess runs java -version under serial-c1 and
// under its lazy-JIT variant on a real JDK 17: the variant's thresholds
// must act on C1 alone (TieredStopAtLevel=1), so it compiles fewer
// methods (58-62 against 23-24 here).
func TestTuneLazyJITCompilesLess(t *testing.T) {
	java := "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	cs, err := Candidates(plan.Footprint, 1, 17, testProfile, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	compiled := func(opts []string) int {
		cmd := exec.Command(java, append(append([]string{}, opts...), "-Xshare:off", "-XX:+PrintCompilation", "-version")...)
		cmd.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", opts, err)
		}
		return strings.Count(string(out), "::")
	}
	base, lazy := compiled(cs[slices.Index(names(cs), "serial-c1")].Options), compiled(cs[slices.Index(names(cs), "serial-c1-lazyjit")].Options)
	if base == 0 || lazy*3 > base*2 {
		t.Errorf("methods compiled by java -version: serial-c1 %d, serial-c1-lazyjit %d; want the lazy JIT under 2/3 of it", base, lazy)
	}
}

func javaVersion(t *testing.T, java, name string, opts []string) {
	t.Helper()
	cmd := exec.Command(java, append(opts, "-version")...)
	cmd.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "Unrecognized") || strings.Contains(strings.ToLower(string(out)), "error") {
		t.Errorf("%s %s: %v\n%s", java, name, err, out)
	}
}

// TestTuneLauncherPlanner checks the seam to the real planner: the
// candidate's options win over the launcher's choices, and a limit too
// small is a *plan.RefusedError naming the smallest accepted.
func TestTuneLauncherPlanner(t *testing.T) {
	pl := LauncherPlanner(17, plan.Footprint)
	cs, _ := Candidates(plan.Footprint, 1, 17, testProfile, "/arc")
	tiered := cs[slices.Index(names(cs), "serial-c1-heap1.5x")]
	tiered.Options = append(tiered.Options, "-XX:TieredStopAtLevel=4")
	p, err := pl(Point{Purpose: PurposeSearch, MemoryBytes: 256 * tmib, CPUs: 1, Candidate: tiered.Name, Options: tiered.Options, Profile: testProfile})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range p.Options {
		if strings.HasPrefix(o, "-XX:TieredStopAtLevel") || strings.HasPrefix(o, "-Xmx") || strings.HasPrefix(o, "-XX:+Use") && strings.HasSuffix(o, "GC") {
			t.Errorf("the launcher emitted %s over the candidate's own option", o)
		}
	}
	_, err = pl(Point{Purpose: PurposeSearch, MemoryBytes: 8 * tmib, CPUs: 1, Options: tiered.Options, Profile: testProfile})
	var ref *plan.RefusedError
	if !errors.As(err, &ref) || ref.MinBytes <= 8*tmib {
		t.Errorf("8Mi: %v; want a refusal naming a larger limit", err)
	}
}

// A point below the floor the planner predicts is planned as exec plans
// it: where plan.Compute refuses the limit, the Fit point gets a plan (the
// JDK's heap, uncapped regions and a doubt), so the floor is a prediction
// tune can try below, not a wall.
func TestTuneFitPointBelowTheFloor(t *testing.T) {
	pl := LauncherPlanner(17, plan.Balanced)
	p := Point{Purpose: PurposeSearch, MemoryBytes: 48 * tmib, CPUs: 1, Candidate: "serial-c1-planner",
		Options: []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}, Profile: testProfile}
	var ref *plan.RefusedError
	if _, err := pl(p); !errors.As(err, &ref) {
		t.Fatalf("plan.Compute at 48Mi: %v; want a refusal for the test to mean anything", err)
	}
	p.Fit = true
	got, err := pl(p)
	if err != nil || got.Doubt == "" || got.HeapBytes() <= 0 {
		t.Fatalf("the Fit point at 48Mi: %+v, %v; want exec's plan with its doubt", got, err)
	}
}
