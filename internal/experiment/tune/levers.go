package tune

import (
	"math"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Seed 004's levers as candidates (docs/seed004.md): today's counterparts
// of its 32-bit JVM (compact object headers, a compressed class space
// sized to the app) and its fewer GC and JIT threads. Each is the first
// GC and compiler pair with one lever more, judged by its trials like any
// other candidate: a lever that costs latency misses the SLO and is never
// the answer. None turns off the bytecode verifier (plan.TurnsOffVerifier).

// compactHeaderOptions are the options that turn on compact object
// headers on this JDK, or nil where the candidate would add nothing: JDK
// 25 has them as a product option (JEP 519), JDK 24 only behind
// UnlockExperimentalVMOptions (JEP 450), older JDKs not at all; the
// footprint goal's plan already turns them on from 25.
func compactHeaderOptions(goal string, jdkVersion int) []string {
	switch {
	case jdkVersion >= 25 && goal != plan.Footprint:
		return []string{"-XX:+UseCompactObjectHeaders"}
	case jdkVersion == 24:
		return []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseCompactObjectHeaders"}
	}
	return nil
}

// classSpaceSize is the compressed class space a candidate reserves: twice
// what the profile measured in it, at least 16 MiB, in whole MiB (the
// JDK's 1 GiB reservation is address space, not RSS; what a smaller one
// saves is measured in bench/levers.sh). 0 without a measured class space.
// Twice leaves room for classes the profile's run did not load; the
// planner refuses one under the measured use (plan.checkClassSpace).
func classSpaceSize(p *plan.Profile) int64 {
	if p == nil || p.ClassSpaceUsedBytes <= 0 {
		return 0
	}
	return max(16*size.MiB, roundMiB(2*float64(p.ClassSpaceUsedBytes)))
}

// fewerThreads are the GC and compiler thread counts at their smallest
// for a collector with workers: one parallel and one concurrent GC thread,
// and the compilers' minimum (one with C1 alone, two tiered). nil when
// the collector has no workers to cut (Serial) or there is one CPU (the
// pair already runs one of each).
func fewerThreads(gc, jit string, cpus float64) []string {
	if gc == "serial" || math.Ceil(cpus) < 2 {
		return nil
	}
	o := []string{"-XX:ParallelGCThreads=1"}
	if gc == "g1" {
		o = append(o, "-XX:ConcGCThreads=1")
	}
	return append(o, jitOptions(jit)...)
}

// leverCandidates are the levers' candidates on top of the first GC and
// compiler pair (first, with its gc and jit names), and the threads lever
// on the first pair that has GC workers.
func leverCandidates(goal string, cpus float64, jdkVersion int, prof *plan.Profile, first Candidate, pairs []Candidate) []Candidate {
	var out []Candidate
	if o := compactHeaderOptions(goal, jdkVersion); o != nil {
		out = append(out, Candidate{Name: first.Name + "-coh", Options: join(first.Options, o)})
	}
	if c := classSpaceSize(prof); c > 0 {
		out = append(out, Candidate{Name: first.Name + "-ccs", Options: join(first.Options, []string{"-XX:CompressedClassSpaceSize=" + size.JVM(c)})})
	}
	for _, p := range pairs {
		gc, jit := pairNames(p.Name)
		if t := fewerThreads(gc, jit, cpus); t != nil {
			out = append(out, Candidate{Name: p.Name + "-threads1", Options: join(withoutThreadCounts(p.Options), t)})
			break
		}
	}
	return out
}

// pairNames splits a pair's name, "parallel-c1", into its GC and JIT.
func pairNames(name string) (gc, jit string) {
	gc, jit, _ = strings.Cut(name, "-")
	return gc, jit
}

// withoutThreadCounts drops the pair's own thread counts and JIT level,
// which fewerThreads restates.
func withoutThreadCounts(opts []string) []string {
	var out []string
	for _, o := range opts {
		k, _, _ := strings.Cut(o, "=")
		switch k {
		case "-XX:ParallelGCThreads", "-XX:ConcGCThreads", "-XX:CICompilerCount", "-XX:TieredStopAtLevel":
			continue
		}
		out = append(out, o)
	}
	return out
}
