package trial

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/size"
)

// sampleAt is a JVM reading at t with cumulative GC time gc and the heap
// committed at full of its 56 MiB maximum.
func sampleAt(t, gc time.Duration, full float64) probe.Sample {
	max := int64(56 * size.MiB)
	return probe.Sample{At: t, GCTime: gc, HeapMax: max, HeapCommitted: int64(full * float64(max)), HeapUsed: max / 2, OldGCs: int64(t / time.Second)}
}

// The rule needs a whole window of collecting, at the heap's maximum:
// a start that collects hard for a few seconds, or a heap that can still
// grow, is not bound.
func TestGCWatchNeedsAWindowAtTheMaximumHeap(t *testing.T) {
	for _, c := range []struct {
		name  string
		share float64 // GC time per wall time, every reading
		full  float64 // committed share of the maximum heap
		for_  time.Duration
		bound bool
	}{
		{"collecting without end", 0.97, 0.96, 12 * time.Second, true},
		{"only for 8s", 0.97, 0.96, 8 * time.Second, false},
		{"a heap that can still grow", 0.97, 0.5, 20 * time.Second, false},
		{"a busy but working collector", 0.6, 1, 20 * time.Second, false},
	} {
		var w gcWatch
		var bound bool
		var why string
		for at := time.Duration(0); at <= c.for_ && !bound; at += 250 * time.Millisecond {
			bound, why = w.observe(sampleAt(at, time.Duration(c.share*float64(at)), c.full))
		}
		if bound != c.bound {
			t.Errorf("%s: bound %v (%q), want %v", c.name, bound, why, c.bound)
		}
		if bound && !strings.Contains(why, "97% of the last 10s") {
			t.Errorf("%s: %q, want the share and the window", c.name, why)
		}
	}
	// A JVM that collected for a minute, then recovered, is judged on the
	// last window only.
	var w gcWatch
	gc := time.Duration(0)
	for at := time.Duration(0); at <= 30*time.Second; at += 500 * time.Millisecond {
		if at > 5*time.Second {
			gc += 100 * time.Millisecond // 20% from here on
		} else {
			gc += 490 * time.Millisecond
		}
		if bound, why := w.observe(sampleAt(at, gc, 1)); bound {
			t.Fatalf("bound at %v: %s", at, why)
		}
	}
}

// A JVM bound in GC before ready is judged out of memory in the verdict,
// not left to be not-ready.
func TestGCBoundIsJavaOOM(t *testing.T) {
	r := &Result{}
	judge(r, SLO{}, outcome{rd: readyGCBound, gcBound: "97% of the last 10s collecting garbage"})
	if r.Verdict != KO || r.Kind != KindJavaOOM || !strings.Contains(r.Failed[0], "97% of the last 10s") || !strings.Contains(r.Failed[0], "before it was ready") {
		t.Errorf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
}

// A real JVM that holds most of its heap live and churns never gets
// ready and never throws: it is stopped within seconds of the window,
// judged java-oom, not after its two-minute ready timeout.
func TestRealJVMBoundInGCIsStoppedEarly(t *testing.T) {
	a := fixtureApp(t, "gcbound", 2*time.Minute, "-XX:+UseParallelGC", "-XX:-UseGCOverheadLimit", "-Xmx32m", "-Xms32m")
	spec := prepared(t, a, Spec{NoLimits: os.Geteuid() != 0, MemoryBytes: 256 * size.MiB, CPUs: 1, Duration: 5 * time.Second})
	r, took := timedRun(t, a, spec)
	if r.Verdict != KO || r.Kind != KindJavaOOM || !strings.Contains(r.Failed[0], "collecting garbage") {
		t.Fatalf("got %s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if took > time.Minute {
		t.Errorf("took %v: the watch did not end the two-minute ready wait early", took)
	}
}
