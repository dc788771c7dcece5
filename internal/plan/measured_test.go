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
// NMT total 244 MiB). The plan must hold every uncapped category's peak
// and C1's share of the measured burst, and so refuse 264Mi.
func TestCatalogC1FromDefaultsProfileHoldsItsNative(t *testing.T) {
	pr, err := LoadProfile("testdata/catalog-default-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	opts := []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xss256k"}
	in := Input{Limits: limits(264*mib, 1), JDK: jdk17, Goal: Footprint, UserOptions: opts, Profile: pr}
	p, err := Compute(in)
	var ref *RefusedError
	if err == nil {
		t.Fatalf("264Mi planned with a %d MiB heap, native %d MiB, compiler %d MiB: the limit that was OOM-killed",
			p.HeapBytes()>>20, p.Region(RegNative).Bytes>>20, p.Region(RegCompiler).Bytes>>20)
	}
	if !errors.As(err, &ref) {
		t.Fatalf("not a refusal: %v", err)
	}
	p, err = Compute(withMem(in, ref.MinBytes))
	if err != nil {
		t.Fatal(err)
	}
	if n, want := p.Region(RegNative).Bytes, otherNativeNMT(pr.NMTPeakBytes); n < want {
		t.Errorf("native %d planned, below the %d the uncapped NMT categories peaked at", n, want)
	}
	burst := pr.NMTPeakBytes["Compiler"] + pr.NMTPeakBytes["Arena Chunk"]
	if c := p.Region(RegCompiler).Bytes; c < burst*3/10 {
		t.Errorf("compiler %d planned for C1, below 0.3 of the measured tiered burst %d", c, burst)
	}
}
