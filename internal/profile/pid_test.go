//go:build linux

package profile

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// The live set is the old generation at the sample after the last old
// collection that ended in the window, not the one before the window, and
// not the highest.
func TestLiveAfterTheLastOldGC(t *testing.T) {
	s := func(old, used int64) probe.Sample {
		return probe.Sample{HeapCommitted: 1, OldGCs: old, OldUsed: used}
	}
	live, ok := liveAfterOldGC([]probe.Sample{s(3, 50), s(3, 60), s(4, 30), s(4, 45), s(5, 28), s(5, 40)})
	if !ok || live != 28 {
		t.Errorf("live %d (measured %v), want 28 after the fifth old GC", live, ok)
	}
	// Old GCs before the window only: the lowest old use, an estimate.
	live, ok = liveAfterOldGC([]probe.Sample{s(3, 50), s(3, 44), s(3, 60)})
	if ok || live != 44 {
		t.Errorf("live %d (measured %v), want the estimate 44", live, ok)
	}
}

func TestMajorOf(t *testing.T) {
	for v, want := range map[string]int{"17.0.15+6-Debian-1deb12u1": 17, "1.8.0_412-b08": 8, "25+36-LTS": 25, "": 0} {
		if got := majorOf(v); got != want {
			t.Errorf("%q: %d, want %d", v, got, want)
		}
	}
}
