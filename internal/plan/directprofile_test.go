package plan

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// directbufProfile is directbuf's profile (one trial under the defaults at
// 1 GiB, JDK 17, tiered): Netty's pooled direct buffers peaked at 72 MiB,
// which NMT counts as Other.
func directbufProfile() *Profile {
	return &Profile{Version: 1, App: "directbuf", PeakThreads: 17, LoadedClasses: 2233,
		CodeCacheUsedBytes: 6499328, MetaspaceUsedBytes: 9100400, ClassSpaceUsedBytes: 959992,
		DirectMemoryBytes: 75522048, LiveHeapBytes: 3945856, PeakUncappedNativeBytes: 15656960,
		JDKVersion: 17, Options: []string{"-XX:NativeMemoryTracking=summary"},
		NMTPeakBytes: map[string]int64{"Arena Chunk": 10888192, "Class": 1327104, "Code": 9817088, "Compiler": 2895872,
			"GC": 89088, "Internal": 259072, "Java Heap": 16842752, "Metaspace": 8290304, "Module": 178176,
			"Native Memory Tracking": 831488, "Other": 75522048, "Symbol": 2227200, "Thread": 1201152, "Total": 139929600}}
}

// Direct buffers are sized once, as direct memory: NMT's Other is not
// counted again in the native, whose floor is the other uncapped
// categories (the plan runs C1, the profile ran tiered, so the floor is
// what sizes the native here).
func TestDirectBuffersAreNotCountedTwice(t *testing.T) {
	pr := directbufProfile()
	p := mustPlan(t, Input{Limits: limits(256*mib, 1), JDK: jdk17, Profile: pr})
	direct, native := p.Region(RegDirect).Bytes, p.Region(RegNative).Bytes
	if direct < pr.DirectMemoryBytes {
		t.Fatalf("direct memory %s: want at least the measured %s", size.Format(direct), size.Format(pr.DirectMemoryBytes))
	}
	if native >= pr.DirectMemoryBytes {
		t.Fatalf("other native %s holds the %s of direct buffers again: %s", size.Format(native), size.Format(pr.DirectMemoryBytes), p.Region(RegNative).Why)
	}
}

// Where the limit is too small for the plan, a region left open gets the
// JDK's own cap; for direct memory that is about the heap, below what the
// profile measured, so the plan caps it at the measured need instead
// (issue 21: never a cap below what the app needs).
func TestDirectCapNeverBelowTheMeasuredNeedWhenThePlanDoesNotFit(t *testing.T) {
	pr := directbufProfile()
	need := profileDirectNeed(pr)
	for m := int64(96 * mib); m <= 160*mib; m += 8 * mib {
		p, _, err := Fit(Input{Limits: limits(m, 1), JDK: jdk17, Profile: pr}, nil)
		if err != nil {
			t.Fatalf("%s: %v", size.Format(m), err)
		}
		c, _ := size.Parse(optionValue(p.Options, "-XX:MaxDirectMemorySize="))
		if c < need {
			t.Fatalf("%s: MaxDirectMemorySize %s (options %v): want at least the profile's need %s, not the JDK's own cap at a %s heap",
				size.Format(m), size.Format(c), p.Options, size.Format(need), size.Format(p.HeapBytes()))
		}
	}
}
