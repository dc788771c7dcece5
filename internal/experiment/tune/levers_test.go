package tune

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func candidate(cs []Candidate, name string) (Candidate, bool) {
	i := slices.IndexFunc(cs, func(c Candidate) bool { return c.Name == name })
	if i < 0 {
		return Candidate{}, false
	}
	return cs[i], true
}

// Compact headers are a candidate only where they are valid and the plan
// does not already set them: a product option from JDK 25 (JEP 519), JDK
// 24 behind UnlockExperimentalVMOptions (JEP 450), never before.
func TestCompactHeadersCandidateOnlyWhereValid(t *testing.T) {
	for _, c := range []struct {
		goal string
		jdk  int
		want []string // nil: not offered
	}{
		{plan.Balanced, 25, []string{"-XX:+UseCompactObjectHeaders"}},
		{plan.Throughput, 26, []string{"-XX:+UseCompactObjectHeaders"}},
		{plan.Footprint, 25, nil}, // the footprint plan turns them on itself
		{plan.Balanced, 24, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseCompactObjectHeaders"}},
		{plan.Footprint, 24, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseCompactObjectHeaders"}},
		{plan.Balanced, 21, nil},
		{plan.Footprint, 17, nil},
	} {
		cs, err := Candidates(c.goal, 1, c.jdk, testProfile, "/arc")
		if err != nil {
			t.Fatal(err)
		}
		first := cs[len(launcherCandidates())]
		coh, ok := candidate(cs, first.Name+"-coh")
		if ok != (c.want != nil) {
			t.Errorf("%s JDK %d: compact headers offered %v, want %v: %v", c.goal, c.jdk, ok, c.want != nil, names(cs))
			continue
		}
		if ok && (!slices.Equal(coh.Options[:len(first.Options)], first.Options) || !slices.Equal(coh.Options[len(first.Options):], c.want)) {
			t.Errorf("%s JDK %d: %v; want %s's options then %v", c.goal, c.jdk, coh.Options, first.Name, c.want)
		}
		for _, o := range cs {
			if !strings.HasSuffix(o.Name, "-coh") && slices.ContainsFunc(o.Options, func(s string) bool { return strings.Contains(s, "CompactObjectHeaders") }) {
				t.Errorf("%s JDK %d: %s sets compact headers", c.goal, c.jdk, o.Name)
			}
		}
	}
}

// The class space lever is offered with a measured class space only, at
// twice the use (at least 16 MiB), which the planner accepts; the threads
// lever only where a collector has workers to cut, at one of each.
func TestClassSpaceAndThreadsCandidates(t *testing.T) {
	cs, _ := Candidates(plan.Footprint, 1, 17, testProfile, "/arc") // 6 MiB of class space
	ccs, ok := candidate(cs, "serial-c1-ccs")
	if !ok || ccs.Options[len(ccs.Options)-1] != "-XX:CompressedClassSpaceSize=16m" {
		t.Errorf("class space lever: %+v (%v); want serial-c1's options and 16m (2 × 6 MiB, at least 16)", ccs, ok)
	}
	big := *testProfile
	big.ClassSpaceUsedBytes = 11*tmib + tmib/2
	cs, _ = Candidates(plan.Footprint, 1, 17, &big, "/arc")
	if ccs, _ := candidate(cs, "serial-c1-ccs"); ccs.Options[len(ccs.Options)-1] != "-XX:CompressedClassSpaceSize=23m" {
		t.Errorf("11.5 MiB used: %v; want 23m", ccs.Options)
	}
	// The planner takes the candidate's class space on the profile it
	// was sized from.
	if _, err := plan.Compute(plan.Input{Limits: cgroup.Limits{MemoryBytes: 256 * tmib, CPUQuota: 1, HostCPUs: 2, SwapBytes: -1},
		JDK: jdk.JDK{Version: 17, Update: 15}, Goal: plan.Footprint, Profile: &big, UserOptions: ccs.Options}); err != nil {
		t.Errorf("the planner refuses the class space candidate: %v", err)
	}
	noClass := *testProfile
	noClass.ClassSpaceUsedBytes = 0
	for _, pr := range []*plan.Profile{&noClass, nil} {
		cs, _ := Candidates(plan.Footprint, 1, 17, pr, "/arc")
		if slices.ContainsFunc(cs, func(c Candidate) bool { return strings.HasSuffix(c.Name, "-ccs") }) {
			t.Errorf("no class space measured: %v; want no class space lever", names(cs))
		}
	}

	// One CPU: every pair already runs one GC and one compiler thread.
	cs, _ = Candidates(plan.Footprint, 1, 17, testProfile, "/arc")
	if slices.ContainsFunc(cs, func(c Candidate) bool { return strings.HasSuffix(c.Name, "-threads1") }) {
		t.Errorf("1 CPU: %v; want no threads lever", names(cs))
	}
	cs, _ = Candidates(plan.Balanced, 4, 17, testProfile, "/arc")
	th, ok := candidate(cs, "parallel-tiered-threads1")
	if !ok {
		t.Fatalf("balanced, 4 CPUs: %v; want the threads lever on the first pair with GC workers", names(cs))
	}
	o := strings.Join(th.Options, " ")
	for _, want := range []string{"-XX:+UseParallelGC", "-XX:ParallelGCThreads=1", "-XX:TieredStopAtLevel=4", "-XX:CICompilerCount=2"} {
		if !strings.Contains(o+" ", want+" ") {
			t.Errorf("threads lever %s lacks %s", o, want)
		}
	}
	if strings.Contains(o, "ParallelGCThreads=4") || strings.Count(o, "CICompilerCount") != 1 {
		t.Errorf("threads lever %s keeps the pair's own counts", o)
	}
}

// No candidate of any goal, JDK, CPU count or profile turns off the
// bytecode verifier.
func TestNoCandidateTurnsOffVerifier(t *testing.T) {
	for _, goal := range []string{plan.Footprint, plan.Balanced, plan.Throughput} {
		for _, v := range []int{8, 11, 17, 21, 24, 25} {
			for _, cpus := range []float64{0.5, 1, 2, 4, 16} {
				for _, pr := range []*plan.Profile{testProfile, nil} {
					cs, err := Candidates(goal, cpus, v, pr, "/arc")
					if err != nil {
						t.Fatal(err)
					}
					for _, c := range cs {
						for _, o := range append(slices.Clone(c.Options), c.Training...) {
							if plan.TurnsOffVerifier(o) {
								t.Fatalf("%s JDK %d %g CPUs: %s has %s", goal, v, cpus, c.Name, o)
							}
						}
					}
				}
			}
		}
	}
}

// The levers' options start a real JVM where they are offered and are
// refused where they are not: JDK 25 takes compact headers, a 16m class
// space and one GC thread; JDK 17 has no compact headers.
func TestLeverOptionsRealJVM(t *testing.T) {
	const j25, j17 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, j25)
	prereq.Java(t, j17)
	run := func(java string, opts ...string) (string, error) {
		out, err := exec.Command(java, append(opts, "-XX:+PrintFlagsFinal", "-version")...).CombinedOutput()
		return string(out), err
	}
	cs, _ := Candidates(plan.Balanced, 2, 25, testProfile, "/arc")
	for _, name := range []string{"serial-tiered-coh", "serial-tiered-ccs", "parallel-tiered-threads1"} {
		c, ok := candidate(cs, name)
		if !ok {
			t.Fatalf("JDK 25 balanced 2 CPUs: no %s in %v", name, names(cs))
		}
		out, err := run(j25, c.Options...)
		if err != nil {
			t.Fatalf("JDK 25 refuses %s %v: %v\n%s", name, c.Options, err, out)
		}
		for _, o := range c.Options[len(c.Options)-1:] {
			flag, val, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(o, "-XX:"), "+"), "=")
			if val == "" {
				val = "true"
			}
			if v := finalFlag(out, flag); v != strings.ToLower(strings.TrimSuffix(val, "m")) && !(flag == "CompressedClassSpaceSize" && v == "16777216") {
				t.Errorf("JDK 25 with %s: %s = %q", name, flag, v)
			}
		}
	}
	var exit *exec.ExitError
	if out, err := run(j17, "-XX:+UseCompactObjectHeaders"); !errors.As(err, &exit) {
		t.Errorf("JDK 17 with -XX:+UseCompactObjectHeaders: %v; want it refused\n%s", err, out)
	}
	if cs, _ := Candidates(plan.Balanced, 2, 17, testProfile, "/arc"); slices.ContainsFunc(cs, func(c Candidate) bool { return strings.HasSuffix(c.Name, "-coh") }) {
		t.Errorf("JDK 17: %v offers compact headers, which it refuses", names(cs))
	}
}

// finalFlag is a flag's value in -XX:+PrintFlagsFinal output.
func finalFlag(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && f[1] == name && f[2] == "=" {
			return f[3]
		}
	}
	return ""
}
