package probe_test

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The runner copies probe.Summary into trial.Summary with a plain
// conversion; this stops compiling if the two drift apart.
func TestSummaryConvertsToTrialSummary(t *testing.T) {
	p := probe.Summary{LivePeak: 7, GCTime: time.Second, GCShare: 0.5}
	got := trial.Summary(p)
	if got.LivePeak != 7 || got.GCTime != time.Second || got.GCShare != 0.5 {
		t.Errorf("%+v", got)
	}
}

func TestNMTCategoryConvertsToTrialNMT(t *testing.T) {
	if got := trial.NMT(probe.NMTCategory{Reserved: 2, Committed: 1}); got.Reserved != 2 || got.Committed != 1 {
		t.Errorf("%+v", got)
	}
}
