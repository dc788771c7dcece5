package plan

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Every plan fits the limit (regions + headroom add up to it, the
// emitted caps equal the regions) or is refused with a message that names
// a limit that works.
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
			in.Profile = &Profile{PeakThreads: int64(rng.Intn(500)), LiveHeapBytes: int64(rng.Intn(2048)) * mib, MetaspaceUsedBytes: int64(rng.Intn(300)) * mib}
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
	if sum != mem || p.Total() > mem-head || head < min(mem/25, size.GiB) {
		t.Fatalf("%s: regions sum %s, headroom %s: does not fit", size.Format(mem), size.Format(sum), size.Format(head))
	}
	if p.HeapBytes() < 16*mib {
		t.Fatalf("%s: heap %s", size.Format(mem), size.Format(p.HeapBytes()))
	}
	opts := strings.Join(p.Options, " ")
	for _, want := range []string{
		"-Xmx" + size.JVM(p.HeapBytes()),
		"-XX:MaxMetaspaceSize=" + size.JVM(p.Region(RegMetaspace).Bytes+p.Region(RegClass).Bytes),
		"-XX:ReservedCodeCacheSize=" + size.JVM(p.Region(RegCode).Bytes),
		"-XX:MaxDirectMemorySize=" + size.JVM(p.Region(RegDirect).Bytes),
	} {
		if !strings.Contains(opts, want+" ") {
			t.Fatalf("%s: %s missing from %s", size.Format(mem), want, opts)
		}
	}
}
