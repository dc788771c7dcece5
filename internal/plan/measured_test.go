package plan

import (
	"errors"
	"testing"
)

// catalog's profile, measured under the JDK's defaults (tiered, 1 Gi) by
// tune's profile trial, planned for C1 only: the native's peak less the
// compiler's peak left 16.4 MiB while Symbol alone peaked at 21.6 and NMT
// at 9.5, and tune's serial-c1 trial at 264Mi, which that plan accepted
// with a 76 MiB heap, was OOM-killed by the kernel (cgroup peak 264 MiB,
// NMT total 244 MiB): its non-heap held more than 264 − 76 = 188 MiB. The
// plan must hold every uncapped category's peak and C1's share of the
// measured burst. With the heap's floor at 3/4 of the live set (55 MiB),
// 264Mi plans again, with a heap small enough that the non-heap keeps more
// than that trial's; at the floor (the smallest accepted limit) too.
func TestCatalogC1FromDefaultsProfileHoldsItsNative(t *testing.T) {
	pr, err := LoadProfile("testdata/catalog-default-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	opts := []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xss256k"}
	in := Input{Limits: limits(264*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: opts, Profile: pr}
	holds := func(p *Plan) {
		t.Helper()
		if n, want := p.Region(RegNative).Bytes, otherNativeNMT(pr.NMTPeakBytes); n < want {
			t.Errorf("native %d planned, below the %d the uncapped NMT categories peaked at", n, want)
		}
		burst := pr.NMTPeakBytes["Compiler"] + pr.NMTPeakBytes["Arena Chunk"]
		if c := p.Region(RegCompiler).Bytes; c < burst*3/10 {
			t.Errorf("compiler %d planned for C1, below 0.3 of the measured tiered burst %d", c, burst)
		}
	}
	p, err := Compute(in)
	var ref *RefusedError
	switch {
	case err == nil:
		if nonHeap := 264*mib - p.HeapBytes() - p.Region(RegHeadroom).Bytes; nonHeap <= 188*mib {
			t.Fatalf("264Mi planned with a %d MiB heap, leaving %d MiB of non-heap: the killed trial's non-heap held more than 188",
				p.HeapBytes()>>20, nonHeap>>20)
		}
		holds(p)
		if _, err = Compute(withMem(in, 200*mib)); !errors.As(err, &ref) {
			t.Fatalf("200Mi not refused: %v", err)
		}
	case !errors.As(err, &ref):
		t.Fatalf("not a refusal: %v", err)
	}
	p, err = Compute(withMem(in, ref.MinBytes))
	if err != nil {
		t.Fatal(err)
	}
	holds(p)
}
