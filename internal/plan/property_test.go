package plan

import (
	"errors"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Every plan fits the limit (regions + headroom add up to it, no cap is
// below its region, measured regions are capped whole, so with a profile
// the accounted total with CDS, allocator, kernel and measured native is
// within the limit) or is refused with a message that names a limit that
// works.
func TestEveryPlanFitsOrIsRefused(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	jdks := []jdk.JDK{{Version: 8, Update: 392}, {Version: 11, Update: 13}, jdk17, {Version: 21, Update: 8}, jdk25}
	goals := []string{Footprint, Balanced, Throughput}
	refused := 0
	for i := 0; i < 3000; i++ {
		// Log-uniform from 64 MiB to 256 GiB.
		mem := int64(float64(64*mib) * math.Pow(2, rng.Float64()*12))
		cpus := float64(1 + rng.Intn(256))
		if rng.Intn(4) == 0 {
			cpus = float64(rng.Intn(400)+10) / 100
		}
		in := Input{Limits: limits(mem, cpus), JDK: jdks[rng.Intn(len(jdks))], Goal: goals[rng.Intn(3)]}
		if rng.Intn(3) == 0 {
			in.Profile = randomProfile(rng)
		}
		p, err := Compute(in)
		if err != nil {
			var ref *RefusedError
			if !errors.As(err, &ref) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: not a one-line refusal: %v", size.Format(mem), err)
			}
			if ref.MinBytes <= mem {
				t.Fatalf("%s refused but names %s as enough", size.Format(mem), size.Format(ref.MinBytes))
			}
			if _, err := Compute(withMem(in, ref.MinBytes)); err != nil {
				t.Fatalf("%s: the named smallest limit %s is refused too: %v", size.Format(mem), size.Format(ref.MinBytes), err)
			}
			if _, err := Compute(withMem(in, ref.MinBytes-mib)); err == nil && ref.MinBytes-mib > mem && ref.MinBytes-mem < 4*size.GiB {
				t.Fatalf("%s: %s is named smallest but 1 MiB less also plans", size.Format(mem), size.Format(ref.MinBytes))
			}
			refused++
			continue
		}
		checkFits(t, p, mem)
		if in.Profile != nil {
			checkMeasured(t, p, in.Profile, mem)
		}
	}
	if refused == 0 {
		t.Error("no limit was ever refused: the 64 MiB end is not exercised")
	}
}

func withMem(in Input, mem int64) Input {
	in.Limits.MemoryBytes = mem
	return in
}

func checkFits(t *testing.T, p *Plan, mem int64) {
	t.Helper()
	var sum int64
	for _, r := range p.Regions {
		if r.Bytes < 0 {
			t.Fatalf("%s: negative region %+v", size.Format(mem), r)
		}
		sum += r.Bytes
	}
	head := p.Region(RegHeadroom).Bytes
	if jdkRegime(p) {
		// No profile, the JDK's heap and no metaspace cap: the regions are
		// estimates clipped to the limit (budget.go); they add up to it.
		if sum != mem || p.Total() > mem-head {
			t.Fatalf("%s: JDK's regime: regions sum %s, headroom %s", size.Format(mem), size.Format(sum), size.Format(head))
		}
		if !strings.Contains(strings.Join(p.Options, " ")+" ", "-Xmx"+size.JVM(p.HeapBytes())+" ") {
			t.Fatalf("%s: -Xmx%s missing from %v", size.Format(mem), size.JVM(p.HeapBytes()), p.Options)
		}
		return
	}
	least := min(mem/25, size.GiB)
	if p.Region(RegStacks).Bytes == 0 { // native measured: 2% headroom
		least = min(max(2*mib, mem/50-mib), size.GiB)
	}
	if sum != mem || p.Total() > mem-head || head < least {
		t.Fatalf("%s: regions sum %s, headroom %s: does not fit: %v", size.Format(mem), size.Format(sum), size.Format(head), p.Regions)
	}
	if p.HeapBytes() < minHeapNoProf {
		t.Fatalf("%s: heap %s", size.Format(mem), size.Format(p.HeapBytes()))
	}
	opts := strings.Join(p.Options, " ") + " "
	if !strings.Contains(opts, "-Xmx"+size.JVM(p.HeapBytes())+" ") {
		t.Fatalf("%s: -Xmx%s missing from %s", size.Format(mem), size.JVM(p.HeapBytes()), opts)
	}
	// Every capped region is counted whole, so the caps and the estimates
	// of what no option caps add up to the limit.
	if !strings.Contains(opts, "-XX:ReservedCodeCacheSize="+size.JVM(p.Region(RegCode).Bytes)+" ") {
		t.Fatalf("%s: code cache cap is not its region in %s", size.Format(mem), opts)
	}
	if budgetRegime(p) {
		// The budget's caps are each above any panel app's use and not
		// all counted whole (budget.go): the regions show the budget.
		return
	}
	meta, direct := optionBytes(t, p, "MaxMetaspaceSize"), optionBytes(t, p, "MaxDirectMemorySize")
	metaReg := p.Region(RegMetaspace).Bytes + p.Region(RegClass).Bytes
	if meta != metaReg || direct != p.Region(RegDirect).Bytes {
		t.Fatalf("%s: caps %s/%s are not the regions %s/%s", size.Format(mem), size.Format(meta), size.Format(direct), size.Format(metaReg), size.Format(p.Region(RegDirect).Bytes))
	}
}

// jdkRegime is a plan without a profile that keeps the JDK's heap and
// caps neither metaspace nor direct memory (budget.go).
func jdkRegime(p *Plan) bool {
	for _, r := range p.Reasons {
		if r.Name == "MaxMetaspaceSize" {
			return false
		}
	}
	return strings.HasPrefix(p.Region(RegHeap).Why, "the heap the JDK itself picks")
}

// budgetRegime is a plan without a profile in a large container: the heap
// is what the non-heap budget leaves (budget.go).
func budgetRegime(p *Plan) bool {
	return strings.Contains(p.Region(RegHeap).Why, "non-heap budget leaves")
}

// optionBytes is the size an emitted -XX:Name=SIZE option gives.
func optionBytes(t *testing.T, p *Plan, name string) int64 {
	t.Helper()
	for _, r := range p.Reasons {
		if r.Name == name {
			b, err := size.Parse(r.Value)
			if err != nil {
				t.Fatalf("%s=%s: %v", name, r.Value, err)
			}
			return b
		}
	}
	t.Fatalf("%s not emitted: %v", name, p.Options)
	return 0
}

// With a profile, what the profile measured is in the plan whole: the
// accounted total (the sum checkFits checks) holds the CDS archive as
// measured, every measured region at least at its peak (caps counted
// whole), and the uncapped native at least at its peak: whole when the
// plan runs the compiler it was measured under, else less the measured
// compiler share, with the plan's own compiler counted apart.
func checkMeasured(t *testing.T, p *Plan, pr *Profile, mem int64) {
	t.Helper()
	at := size.Format(mem)
	if pr.CDSArchiveBytes > 0 && p.Region(RegCDS).Bytes < pr.CDSArchiveBytes {
		t.Fatalf("%s: CDS archive %s measured, %s planned", at, size.Format(pr.CDSArchiveBytes), size.Format(p.Region(RegCDS).Bytes))
	}
	for _, c := range []struct {
		name     string
		measured int64
		planned  int64
	}{
		{"metaspace", pr.MetaspaceUsedBytes, p.Region(RegMetaspace).Bytes + p.Region(RegClass).Bytes},
		{"code cache", pr.CodeCacheUsedBytes, p.Region(RegCode).Bytes},
		{"direct", pr.DirectMemoryBytes, p.Region(RegDirect).Bytes},
		// The heap's floor is 3/4 of the live set (heap.go: below it none
		// of the sample apps started); the profile's own figure is not.
		{"heap (3/4 of the live set)", pr.LiveHeapBytes * 3 / 4, p.HeapBytes()},
	} {
		if c.planned < c.measured {
			t.Fatalf("%s: %s measured %s, planned %s", at, c.name, size.Format(c.measured), size.Format(c.planned))
		}
	}
	if pr.PeakUncappedNativeBytes == 0 {
		return
	}
	native, comp := p.Region(RegNative).Bytes, p.Region(RegCompiler).Bytes
	burst := pr.NMTPeakBytes["Compiler"] + pr.NMTPeakBytes["Arena Chunk"]
	pc1, pn := profileJIT(pr)
	same := pc1 == p.C1Only && pn == compilersOf(p)
	switch {
	case same || burst == 0:
		if native < pr.PeakUncappedNativeBytes || comp != 0 {
			t.Fatalf("%s: uncapped native %s measured under this compiler, %s planned (+%s compiler)", at, size.Format(pr.PeakUncappedNativeBytes), size.Format(native), size.Format(comp))
		}
	case native < pr.PeakUncappedNativeBytes-burst || native < otherNativeNMT(pr.NMTPeakBytes) ||
		comp < burstModel(p.C1Only, compilersOf(p)) || comp < scaledBurst(p.C1Only, pc1, burst):
		t.Fatalf("%s: uncapped native %s with a %s burst under another compiler, %s + %s compiler planned", at,
			size.Format(pr.PeakUncappedNativeBytes), size.Format(burst), size.Format(native), size.Format(comp))
	}
}

// compilersOf is the plan's CICompilerCount.
func compilersOf(p *Plan) int {
	for _, r := range p.Reasons {
		if r.Name == "CICompilerCount" {
			n, _ := strconv.Atoi(r.Value)
			return n
		}
	}
	return 0
}

// randomProfile is a version-1 profile with a random subset of fields,
// measured under C1 only or tiered.
func randomProfile(rng *rand.Rand) *Profile {
	pick := func(maxMiB int) int64 {
		if rng.Intn(4) == 0 {
			return 0
		}
		return int64(rng.Intn(maxMiB*1024)) * 1024
	}
	p := &Profile{Version: 1, PeakThreads: int64(rng.Intn(500)), LiveHeapBytes: pick(2048),
		MetaspaceUsedBytes: pick(300), ClassSpaceUsedBytes: pick(40), CodeCacheUsedBytes: pick(120),
		DirectMemoryBytes: pick(64), MappedBufferBytes: pick(32), CDSArchiveBytes: pick(16),
		PeakUncappedNativeBytes: pick(200), CPUs: float64(1 + rng.Intn(8))}
	if rng.Intn(3) > 0 {
		p.NMTPeakBytes = map[string]int64{"Compiler": pick(20), "Arena Chunk": pick(20), "GC": pick(8)}
	}
	switch rng.Intn(3) {
	case 0:
		p.Options = []string{"-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=" + strconv.Itoa(1+rng.Intn(2))}
	case 1:
		p.Options = []string{"-XX:CICompilerCount=2"}
	}
	return p
}
