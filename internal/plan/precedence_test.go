package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

func has(p *Plan, prefix string) bool {
	for _, o := range p.Options {
		if strings.HasPrefix(o, prefix) {
			return true
		}
	}
	return false
}

// A user -Xmx is the heap; the rest shrinks around it instead of adding on top.
func TestUserHeapWinsAndRestShrinks(t *testing.T) {
	base := mustPlan(t, Input{Limits: limits(512*mib, 1), JDK: jdk17})
	p := mustPlan(t, Input{Limits: limits(512*mib, 1), JDK: jdk17, UserOptions: []string{"-Xmx340m"}})
	if has(p, "-Xmx") || p.HeapBytes() != 340*mib {
		t.Fatalf("user -Xmx not kept: %v heap %s", p.Options, size.Format(p.HeapBytes()))
	}
	if optionBytes(t, p, "MaxMetaspaceSize") >= optionBytes(t, base, "MaxMetaspaceSize") {
		t.Errorf("metaspace did not shrink around the user's heap: %s", size.Format(p.Region(RegMetaspace).Bytes))
	}
	checkFits(t, withHeapOpt(p), 512*mib)
	if len(p.Kept) != 1 || p.Kept[0] != "-Xmx340m" {
		t.Errorf("kept %v", p.Kept)
	}
	if _, err := Compute(Input{Limits: limits(512*mib, 1), JDK: jdk17, UserOptions: []string{"-Xmx500m"}}); err == nil {
		t.Error("-Xmx500m in 512Mi accepted")
	}
}

// withHeapOpt puts the user's -Xmx back so checkFits can read it.
func withHeapOpt(p *Plan) *Plan {
	q := *p
	q.Options = append([]string{"-Xmx" + size.JVM(p.HeapBytes())}, p.Options...)
	return &q
}

func TestUserOptionsReplaceOurs(t *testing.T) {
	user := []string{"-XX:+UseG1GC", "-Xss1m", "-XX:TieredStopAtLevel=4", "-XX:MaxMetaspaceSize=100m",
		"-XX:CICompilerCount=3", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=7", "-XX:MinHeapFreeRatio=10"}
	p := mustPlan(t, Input{Limits: limits(320*mib, 1), JDK: jdk17, UserOptions: user})
	for _, o := range []string{"-XX:+UseSerialGC", "-Xss", "-XX:TieredStopAtLevel", "-XX:MaxMetaspaceSize", "-XX:CICompilerCount", "-Djava.util.concurrent.ForkJoinPool", "-XX:MaxHeapFreeRatio"} {
		if has(p, o) {
			t.Errorf("%s emitted although the user set it: %v", o, p.Options)
		}
	}
	if p.GC != "G1" || p.C1Only || p.Region(RegMetaspace).Bytes+p.Region(RegClass).Bytes != 100*mib {
		t.Errorf("user choices not planned around: gc %s c1 %v meta %d", p.GC, p.C1Only, p.Region(RegMetaspace).Bytes)
	}
	if got := p.Region(RegStacks).Bytes; got != int64(p.Threads)*stackTouched {
		t.Errorf("stacks %s not sized with the user's 1m", size.Format(got))
	}
	if _, err := Compute(Input{Limits: limits(256*mib, 1), JDK: jdk17, UserOptions: []string{"-Xmx12q"}}); err == nil || !strings.Contains(err.Error(), "-Xmx12q") {
		t.Errorf("bad user size: %v", err)
	}
}

func TestRunJavaRatios(t *testing.T) {
	p := mustPlan(t, Input{Limits: limits(1024*mib, 2), JDK: jdk17, MaxMemRatio: 50, InitMemRatio: 25})
	if p.HeapBytes() != 512*mib || !has(p, "-Xmx512m") || !has(p, "-Xms256m") {
		t.Fatalf("ratios not applied: %v", p.Options)
	}
	if _, err := Compute(Input{Limits: limits(1024*mib, 2), JDK: jdk17, MaxMemRatio: 95}); err == nil {
		t.Error("JAVA_MAX_MEM_RATIO=95 accepted at 1Gi: non-heap cannot fit")
	}
}

func TestGoalsAndCPURules(t *testing.T) {
	// C1 only at ≤ 300 MiB needs a profile with few threads: without
	// one, or with hundreds of threads (threads' 337), C1's deeper stacks
	// may cost more than C2 (threads lost to the defaults under C1).
	few := &Profile{PeakThreads: 40}
	small := mustPlan(t, Input{Limits: limits(300*mib, 1), JDK: jdk17, Profile: few})
	if !small.C1Only || small.GC != "Serial" || !has(small, "-XX:TieredStopAtLevel=1") || !has(small, "-XX:CICompilerCount=1") {
		t.Errorf("300Mi/1CPU, a profile with 40 threads: %v", small.Options)
	}
	for name, pr := range map[string]*Profile{"no profile": nil, "337 threads": {PeakThreads: 337}, "no thread count": {LoadedClasses: 5000}} {
		p := mustPlan(t, Input{Limits: limits(300*mib, 1), JDK: jdk17, Profile: pr})
		if p.C1Only || has(p, "-XX:TieredStopAtLevel=1") || !has(p, "-XX:CICompilerCount=2") {
			t.Errorf("300Mi/1CPU, %s: must keep tiered compilation with the JDK's 2 compiler threads: %v", name, p.Options)
		}
	}
	big := mustPlan(t, Input{Limits: limits(301*mib, 1), JDK: jdk17, Profile: few})
	if big.C1Only || !has(big, "-XX:CICompilerCount=2") {
		t.Errorf("301Mi must keep C2 with ≥ 2 compiler threads: %v", big.Options)
	}
	fp := mustPlan(t, Input{Limits: limits(2048*mib, 4), JDK: jdk25, Goal: Footprint})
	for _, o := range []string{"-XX:+UseParallelGC", "-XX:GCTimeRatio=4", "-XX:AdaptiveSizePolicyWeight=90", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:TieredStopAtLevel=1", "-XX:+UseCompactObjectHeaders", "-XX:ParallelGCThreads=4"} {
		if !has(fp, o) {
			t.Errorf("footprint 2Gi/4CPU lacks %s: %v", o, fp.Options)
		}
	}
	tp := mustPlan(t, Input{Limits: limits(4096*mib, 8), JDK: jdk17, Goal: Throughput})
	if tp.GC != "G1" || tp.C1Only || !has(tp, "-Xms"+size.JVM(tp.HeapBytes())) || !has(tp, "-XX:CICompilerCount=4") || !has(tp, "-XX:ConcGCThreads=2") {
		t.Errorf("throughput 4Gi/8CPU: %v", tp.Options)
	}
	frac := mustPlan(t, Input{Limits: limits(1024*mib, 1.5), JDK: jdk17})
	if frac.CPUCount != 2 || !has(frac, "-XX:ParallelGCThreads=2") {
		t.Errorf("1.5 CPUs must count as 2: %v", frac.Options)
	}
	inh := limits(1024*mib, 2)
	inh.CPUQuotaInherited = true
	if p := mustPlan(t, Input{Limits: inh, JDK: jdk17}); !has(p, "-XX:ActiveProcessorCount=2") {
		t.Errorf("inherited quota must pin ActiveProcessorCount: %v", p.Options)
	}
	if has(big, "-XX:ActiveProcessorCount") {
		t.Errorf("ActiveProcessorCount emitted where the JVM sees the quota itself")
	}
	if p := mustPlan(t, Input{Limits: limits(1024*mib, 2), JDK: jdk17, Goal: Footprint}); has(p, "-XX:+UseCompactObjectHeaders") {
		t.Error("UseCompactObjectHeaders emitted for JDK 17")
	}
	j11 := mustPlan(t, Input{Limits: limits(1024*mib, 2), JDK: jdk11()})
	if has(j11, "-XX:TrimNativeHeapInterval") {
		t.Error("TrimNativeHeapInterval emitted for 11.0.13")
	}
	if _, err := Compute(Input{Limits: limits(1024*mib, 2), JDK: jdk17, Goal: "fast"}); err == nil {
		t.Error("unknown goal accepted")
	}
}

func TestProfileDrivesRegions(t *testing.T) {
	prof := &Profile{LoadedClasses: 20000, PeakThreads: 200, CodeCacheUsedBytes: 40 * mib, MetaspaceUsedBytes: 120 * mib, DirectMemoryBytes: 64 * mib, LiveHeapBytes: 100 * mib}
	p := mustPlan(t, Input{Limits: limits(2048*mib, 2), JDK: jdk17, Profile: prof})
	wantMeta := roundUp(120*mib*103/100+mib, grain) // used × 1.03 + 1 MiB
	if p.Threads != 254 || p.Region(RegMetaspace).Bytes+p.Region(RegClass).Bytes != wantMeta || p.Region(RegDirect).Bytes != 98*mib {
		t.Errorf("profile not used: threads %d meta %s direct %s", p.Threads, size.Format(p.Region(RegMetaspace).Bytes+p.Region(RegClass).Bytes), size.Format(p.Region(RegDirect).Bytes))
	}
	fp := mustPlan(t, Input{Limits: limits(2048*mib, 2), JDK: jdk17, Profile: prof, Goal: Footprint})
	if fp.HeapBytes() != 216*mib {
		t.Errorf("footprint heap %s, want 2 × live + 16 MiB", size.Format(fp.HeapBytes()))
	}
	// The heap's floor is 3/4 of the live set: 225 MiB does not fit 256Mi.
	_, err := Compute(Input{Limits: limits(256*mib, 1), JDK: jdk17, Profile: &Profile{LiveHeapBytes: 300 * mib}})
	if err == nil || !strings.Contains(err.Error(), "smallest limit") {
		t.Errorf("a 300 MiB live heap in 256Mi: %v", err)
	}

	dir := t.TempDir()
	good := filepath.Join(dir, "p.json")
	os.WriteFile(good, []byte(`{"app":"x","peakThreads":40,"liveHeapBytes":1048576}`), 0o644)
	if lp, err := LoadProfile(good); err != nil || lp.PeakThreads != 40 {
		t.Errorf("LoadProfile: %+v %v", lp, err)
	}
	for name, body := range map[string]string{"typo.json": `{"peakThreds":4}`, "neg.json": `{"peakThreads":-1}`, "bad.json": `{`} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadProfile(p); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The one override rule, from every source of the user's options: the
// command line that results names each of the user's settings once, with
// the user's value, and the plan adds nothing in its place.
func TestOverrideUserWinsForTheirRegion(t *testing.T) {
	cases := []struct {
		name    string
		user    []string
		key     string // FlagKey of the setting the user owns
		dropped string // a plan option that must be gone ("" = none)
	}{
		{"descriptor metaspace", []string{"-XX:MaxMetaspaceSize=128m"}, "MaxMetaspaceSize", "-XX:MaxMetaspaceSize="},
		{"heap as -XX flag", []string{"-XX:MaxHeapSize=100m"}, "MaxHeapSize", "-Xmx"},
		{"heap as -Xmx", []string{"-Xmx100m"}, "MaxHeapSize", "-Xmx"},
		{"heap as a percentage", []string{"-XX:MaxRAMPercentage=30"}, "MaxRAMPercentage", "-Xmx"},
		{"collector", []string{"-XX:+UseG1GC"}, "gc", "-XX:+UseSerialGC"},
		{"stack in KiB", []string{"-XX:ThreadStackSize=1024"}, "ThreadStackSize", "-Xss"},
		{"stack as -Xss", []string{"-Xss1m"}, "ThreadStackSize", "-Xss"},
		{"code cache", []string{"-XX:ReservedCodeCacheSize=64m"}, "ReservedCodeCacheSize", "-XX:ReservedCodeCacheSize="},
		{"crash instead of exit", []string{"-XX:+CrashOnOutOfMemoryError"}, "CrashOnOutOfMemoryError", "-XX:+ExitOnOutOfMemoryError"},
		{"JAVA_OPTIONS then --jvm: the later wins", []string{"-XX:MaxDirectMemorySize=8m", "-XX:MaxDirectMemorySize=16m"}, "MaxDirectMemorySize", "-XX:MaxDirectMemorySize="},
		{"a property", []string{"-Dspring.main.lazy-initialization=true"}, "-Dspring.main.lazy-initialization", ""},
	}
	// 1 GiB: the plan without a profile caps metaspace and direct memory
	// there (below, in the JDK's regime, it leaves them to the JDK).
	base := mustPlan(t, Input{Limits: limits(size.GiB, 1), JDK: jdk17})
	for _, c := range cases {
		p, cmdline, err := Override(Input{Limits: limits(size.GiB, 1), JDK: jdk17}, c.user)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.dropped != "" && !has(base, c.dropped) {
			t.Fatalf("%s: the plan without user options has no %s to drop: %v", c.name, c.dropped, base.Options)
		}
		if c.dropped != "" && has(p, c.dropped) {
			t.Errorf("%s: the plan still gives %s: %v", c.name, c.dropped, p.Options)
		}
		var last string
		n := 0
		for _, o := range cmdline {
			if FlagKey(o) == c.key {
				last, n = o, n+1
			}
		}
		if want := c.user[len(c.user)-1]; last != want || n != len(c.user) {
			t.Errorf("%s: the JVM would take %q (%d times), want the user's %q: %v", c.name, last, n, want, cmdline)
		}
		if strings.Join(cmdline[:len(p.Options)], " ") != strings.Join(p.Options, " ") {
			t.Errorf("%s: the plan's options do not come first: %v", c.name, cmdline)
		}
	}
}

// Rule 2 holds even where the planner would plan in the user's region: a
// plan option for a flag the user sets never reaches the command line.
func TestOverrideDropsEveryPlanOptionForAUserFlag(t *testing.T) {
	p := &Plan{Options: []string{"-Xmx100m", "-XX:+UseSerialGC", "-XX:MaxMetaspaceSize=64m"},
		Reasons: []Reason{{Option: "-Xmx100m"}, {Option: "-XX:+UseSerialGC"}, {Option: "-XX:MaxMetaspaceSize=64m"}}}
	opts, reasons := withoutUserFlags(p, []string{"-XX:MaxRAM=1g", "-XX:+UseParallelGC"})
	if strings.Join(opts, " ") != "-XX:MaxMetaspaceSize=64m" || len(reasons) != 1 || len(p.Kept) != 2 {
		t.Errorf("options %v reasons %v kept %v", opts, reasons, p.Kept)
	}
}

// footprint runs C1 alone at every size, unless a profile counted more
// threads than C1 pays for (c1BreakEven): then the JDK's tiered
// compilation, which costs deep stacks less.
func TestFootprintC1UnlessAProfileOfManyThreads(t *testing.T) {
	for m := int64(64 * mib); m <= 4096*mib; m += 40 * mib {
		for _, cpus := range []float64{1, 2, 4} {
			for _, pr := range []*Profile{nil, {PeakThreads: 20}, {PeakThreads: 170}, {PeakThreads: 171}, {PeakThreads: 337}} {
				p, _, err := Fit(Input{Limits: limits(m, cpus), JDK: jdk17, Goal: Footprint, Profile: pr}, nil)
				if err != nil {
					t.Fatalf("%s %g CPUs: %v", size.Format(m), cpus, err)
				}
				want := pr == nil || pr.PeakThreads <= c1BreakEven
				if p.C1Only != want || has(p, "-XX:TieredStopAtLevel=1") != want {
					t.Fatalf("%s %g CPUs profile %+v: C1 only %v, want %v: %v", size.Format(m), cpus, pr, p.C1Only, want, p.Options)
				}
			}
		}
	}
}

// Without a profile, or with one of many threads, balanced never runs C1
// alone: C1's deeper frames cost threads (337 threads, 1,000-frame stacks)
// 38 MiB of stack against the ~20 MiB C1 saves, and the plan lost to the
// defaults. With a profile of few threads it does, at ≤ 300 MiB only.
func TestBalancedC1OnlyWithAProfileOfFewThreads(t *testing.T) {
	for m := int64(64 * mib); m <= 512*mib; m += 8 * mib {
		for _, cpus := range []float64{1, 2, 4} {
			for _, j := range []jdk.JDK{jdk17, jdk25} {
				for _, pr := range []*Profile{nil, {PeakThreads: 101}, {PeakThreads: 337}, {PeakThreads: 100}, {PeakThreads: 20}} {
					p, _, err := Fit(Input{Limits: limits(m, cpus), JDK: j, Profile: pr}, nil)
					if err != nil {
						t.Fatalf("%s %g CPUs: %v", size.Format(m), cpus, err)
					}
					want := pr != nil && pr.PeakThreads <= c1Threads && m <= smallLimit
					if p.C1Only != want || has(p, "-XX:TieredStopAtLevel=1") != want {
						t.Fatalf("%s %g CPUs JDK %d profile %+v: C1 only %v, want %v: %v", size.Format(m), cpus, j.Version, pr, p.C1Only, want, p.Options)
					}
				}
			}
		}
	}
}
