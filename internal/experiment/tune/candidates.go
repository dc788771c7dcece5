package tune

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Candidate is one set of JVM options tune tries. Its options are user
// options on top of the launcher's plan: they win for the regions they
// name, and the planner sizes the rest from the limit and the profile, so
// a candidate states only its knobs.
type Candidate struct {
	Name    string   `json:"name"`
	Options []string `json:"options"`
	// Training, when set, is the run that writes the archive Options read
	// (a CDS archive or an AOT cache): it runs once, at the generous limit,
	// before the candidate's first search trial, and counts in the budget.
	Training []string `json:"training,omitempty"`
	// Pools are the framework's thread-pool knobs it sets, as system
	// properties in Options (knobs.go).
	Pools []PoolSetting `json:"pools,omitempty"`
	// Launcher marks the launcher's own plan for the goal: no options of
	// its own, every trial planned as `jvmfit exec` plans it (plan.Fit).
	// NoProfile is the same plan without the profile, what `minmem --jvm
	// jvmfit:GOAL` runs: with both among the candidates, tune never answers
	// above what its launcher finds alone.
	Launcher  bool `json:"launcher,omitempty"`
	NoProfile bool `json:"no_profile,omitempty"`
}

// Names of the launcher's own candidates.
const (
	LauncherName          = "launcher"
	LauncherNoProfileName = "launcher-noprofile"
)

// launcherCandidates are the launcher's plan for the goal, with the
// profile (the incumbent the search starts from) and without it.
func launcherCandidates() []Candidate {
	return []Candidate{{Name: LauncherName, Launcher: true}, {Name: LauncherNoProfileName, Launcher: true, NoProfile: true}}
}

// knobs are the goal's choices for the knobs that do not depend on
// the GC or the compiler.
type knobs struct {
	// -Xmx as a multiple of the live set; 0 leaves the heap to the
	// launcher, which with a profile gives it all the room the measured
	// regions leave, down to the live set: the heap then follows the
	// limit the search bisects.
	heapFactor, altHeapFactor float64
	stackSize                 string // -Xss; "" keeps the JVM's
	freeRatios                [2]int // Min/MaxHeapFreeRatio; zero keeps the JVM's
	gcOrder, jitOrder         []string
}

var goalKnobs = map[string]knobs{
	plan.Footprint:  {heapFactor: 0, altHeapFactor: 1.5, stackSize: "256k", freeRatios: [2]int{10, 20}, gcOrder: []string{"serial", "parallel", "g1"}, jitOrder: []string{"c1", "tiered"}},
	plan.Balanced:   {heapFactor: 2, altHeapFactor: 3, stackSize: "512k", freeRatios: [2]int{20, 40}, gcOrder: []string{"serial", "parallel", "g1"}, jitOrder: []string{"tiered", "c1"}},
	plan.Throughput: {heapFactor: 3, altHeapFactor: 2, gcOrder: []string{"parallel", "g1", "serial"}, jitOrder: []string{"tiered", "c1"}},
}

// Candidates generates the candidates for a goal: the launcher's own
// plans first (launcherCandidates), then the goal's most likely GC and
// compiler pairs. The first GC and
// compiler pair also gets the variants of the knobs that matter less:
// another heap size, the planner's own regions, and the class-data
// archives (none, an app archive, and on JDK 25 an AOT cache); a C1 pair
// also gets the lazy compiler (lazyJIT).
func Candidates(goal string, cpus float64, jdkVersion int, prof *plan.Profile, archiveDir string) ([]Candidate, error) {
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return nil, err
	}
	k := goalKnobs[g]
	if prof == nil {
		prof = &plan.Profile{}
	}
	regions := regionOptions(k, prof, k.heapFactor)
	out := launcherCandidates()
	for _, gc := range k.gcOrder {
		if gc == "g1" && cpus < 2 {
			continue // G1's concurrent threads need a second CPU to pay off
		}
		for _, jit := range k.jitOrder {
			name := gc + "-" + jit
			out = append(out, Candidate{Name: name, Options: join(gcOptions(gc, cpus), jitOptions(jit), regions)})
		}
	}
	first := out[len(launcherCandidates())]
	pairs := slices.Clone(out[len(launcherCandidates()):])
	gcJIT := first.Options[:len(first.Options)-len(regions)]
	if prof.LiveHeapBytes > 0 {
		out = append(out, Candidate{Name: fmt.Sprintf("%s-heap%gx", first.Name, k.altHeapFactor),
			Options: join(gcJIT, regionOptions(k, prof, k.altHeapFactor))})
	}
	out = append(out, Candidate{Name: first.Name + "-planner", Options: join(gcJIT)})
	out = append(out, Candidate{Name: first.Name + "-noshare",
		Options: join(gcJIT, regionOptions(k, prof, k.heapFactor), []string{"-Xshare:off"})})
	jsa := filepath.Join(archiveDir, first.Name+".jsa")
	out = append(out, Candidate{Name: first.Name + "-appcds",
		Options:  join(first.Options, []string{"-XX:SharedArchiveFile=" + jsa}),
		Training: join(first.Options, []string{"-XX:ArchiveClassesAtExit=" + jsa})})
	if strings.HasSuffix(first.Name, "-c1") {
		out = append(out, Candidate{Name: first.Name + "-lazyjit", Options: join(first.Options, lazyJIT)})
	}
	if jdkVersion >= 25 {
		aot := filepath.Join(archiveDir, first.Name+".aot")
		out = append(out, Candidate{Name: first.Name + "-aot",
			Options:  join(first.Options, []string{"-XX:AOTCache=" + aot}),
			Training: join(first.Options, []string{"-XX:AOTCacheOutput=" + aot})})
	}
	out = append(out, leverCandidates(g, cpus, jdkVersion, prof, first, pairs)...)
	return distinct(out), nil
}

// lazyJIT raises C1's thresholds tenfold (the tier-3 ones, which C1 alone
// also compiles by): a method is compiled after 2,000 calls instead of
// 200, a loop after 600,000 back-edges instead of 60,000. Methods run a
// few hundred times at start-up then stay interpreted, so less code is
// compiled and the compiler's arenas burst less, at the cost of more
// interpretation, which the SLO judges. filecache, each candidate's own
// profile at 256Mi (1 CPU, 100 req/s, JDK 17, a shared machine at load
// 7-10), serial-c1 against this variant: code cache used 10.0 -> 5.8 MiB,
// the compiler's arenas at their peak 8.1 -> 3.2 MiB, the uncapped native
// 28.4 -> 20.3 MiB, p99 47 -> 26 ms, start 10.5 -> 11.3 s; the plan at
// 104Mi gave the heap 24 MiB instead of 12 (non-heap 76.5 MiB planned
// instead of 89.0), and a trial there passed with a cgroup peak of 94.8
// MiB.
var lazyJIT = []string{"-XX:Tier3InvocationThreshold=2000", "-XX:Tier3MinInvocationThreshold=1000",
	"-XX:Tier3CompileThreshold=20000", "-XX:Tier3BackEdgeThreshold=600000"}

// distinct drops a candidate whose options equal an earlier one's
// (a heap variant rounds to the same -Xmx on a small live set): the same
// options are the same trials.
func distinct(cs []Candidate) []Candidate {
	seen := map[string]bool{}
	var out []Candidate
	for _, c := range cs {
		k := strings.Join(c.Options, "\x00")
		if c.Launcher {
			k = c.Name // its plan is the launcher's, not its options
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

func gcOptions(gc string, cpus float64) []string {
	n := max(1, int(math.Ceil(cpus)))
	switch gc {
	case "serial":
		return []string{"-XX:+UseSerialGC"}
	case "parallel":
		return []string{"-XX:+UseParallelGC", fmt.Sprintf("-XX:ParallelGCThreads=%d", n)}
	}
	return []string{"-XX:+UseG1GC", fmt.Sprintf("-XX:ParallelGCThreads=%d", n), fmt.Sprintf("-XX:ConcGCThreads=%d", max(1, n/4))}
}

// jitOptions: C1 alone needs one compiler thread; tiered needs two (one C1,
// one C2), which is also its minimum. Tiered is said explicitly: the
// launcher would otherwise choose C1 only in a small container.
func jitOptions(jit string) []string {
	if jit == "c1" {
		return []string{"-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"}
	}
	return []string{"-XX:TieredStopAtLevel=4", "-XX:CICompilerCount=2"}
}

// regionOptions are the knobs a candidate sets beyond GC and compiler: the
// heap as a multiple of the live set, stacks and free ratios. Metaspace,
// class space and the code cache are left to the launcher, which sizes
// them from the profile, and from the profile measured under the
// candidate's own options once it has passed (a C1-only JVM has no
// MethodData in metaspace and a smaller code cache than the JDK's defaults
// the first profile ran): caps of their own, from the first profile, would
// hold the floors above what the candidate needs.
func regionOptions(k knobs, p *plan.Profile, heapFactor float64) []string {
	var o []string
	if p.LiveHeapBytes > 0 && heapFactor > 0 {
		o = append(o, "-Xmx"+size.JVM(roundMiB(max(float64(p.LiveHeapBytes)*heapFactor, float64(8*size.MiB)))))
	}
	if k.stackSize != "" {
		o = append(o, "-Xss"+k.stackSize)
	}
	if k.freeRatios[1] > 0 {
		o = append(o, fmt.Sprintf("-XX:MinHeapFreeRatio=%d", k.freeRatios[0]), fmt.Sprintf("-XX:MaxHeapFreeRatio=%d", k.freeRatios[1]))
	}
	return o
}

func roundMiB(b float64) int64 {
	return int64(math.Ceil(b/float64(size.MiB))) * size.MiB
}

func join(parts ...[]string) []string {
	var o []string
	for _, p := range parts {
		o = append(o, p...)
	}
	return o
}
