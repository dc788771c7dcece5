//go:build linux

package probe

import (
	"reflect"
	"testing"
	"time"
)

const mib = 1 << 20

// gcSample is a JVM reading with cumulative GC counts.
func gcSample(at time.Duration, young, old int64, heapUsed, oldUsed, committed int64) Sample {
	return Sample{At: at, YoungGCs: young, OldGCs: old, HeapUsed: heapUsed, OldUsed: oldUsed,
		HeapCommitted: committed, HeapMax: 256 * mib, GCTime: time.Duration(young+old) * 10 * time.Millisecond}
}

func TestSummariseLiveSetAfterOldGCs(t *testing.T) {
	s := []Sample{
		{At: 0, RSS: 20 * mib, Threads: 5}, // before the JVM published counters
		gcSample(1*time.Second, 0, 0, 30*mib, 0, 64*mib),
		gcSample(2*time.Second, 1, 0, 40*mib, 10*mib, 64*mib),  // young GC: mapped only
		gcSample(3*time.Second, 1, 1, 50*mib, 20*mib, 80*mib),  // old GC: live 20
		gcSample(4*time.Second, 1, 1, 70*mib, 20*mib, 80*mib),  // no GC
		gcSample(5*time.Second, 3, 2, 60*mib, 40*mib, 100*mib), // both: live 40
	}
	s[3].RSS, s[3].PSS, s[3].CgroupUsage, s[3].FDs = 150*mib, 140*mib, 160*mib, 33
	s[4].CgroupPeak = 170 * mib
	s[5].CPUTime, s[5].Throttled, s[5].MetaspaceCommitted, s[5].Threads = 3*time.Second, time.Second, 12*mib, 17

	got := Summarise(s, 10*time.Second)
	want := Summary{
		CgroupPeak: 170 * mib, RSSPeak: 150 * mib, PSSPeak: 140 * mib,
		HeapUsedPeak: 70 * mib, HeapCommPeak: 100 * mib, MetaspacePeak: 12 * mib,
		ThreadsPeak: 17, FDsPeak: 33, CPUTime: 3 * time.Second, Throttled: time.Second,
		LiveAvg: 30 * mib, LivePeak: 40 * mib, Live10Avg: 30 * mib,
		// GC points: t=2 (64), t=3 (80), t=5 (100)
		MappedAvg: (64*mib + 80*mib + 100*mib + 1) / 3, MappedPeak: 100 * mib, Mapped10Avg: (64*mib + 80*mib + 100*mib + 1) / 3,
		GCCount: 5, GCTime: 50 * time.Millisecond, GCShare: 0.005,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestSummariseFallsBackToHeapUsedWithoutOldGCs(t *testing.T) {
	var s []Sample
	// 15 young GCs, one per sample: heap used after each is 10, 20, ... 150 MiB.
	for i := int64(1); i <= 15; i++ {
		s = append(s, gcSample(time.Duration(i)*time.Second, i, 0, i*10*mib, 5*mib, (100+i)*mib))
	}
	got := Summarise(s, 0)
	if got.LiveAvg != 80*mib || got.LivePeak != 150*mib {
		t.Errorf("live avg %d peak %d, want 80 and 150 MiB", got.LiveAvg/mib, got.LivePeak/mib)
	}
	// last 10: 60..150 → 105
	if got.Live10Avg != 105*mib {
		t.Errorf("live last-10 avg %d MiB, want 105", got.Live10Avg/mib)
	}
	// mapped 101..115 → avg 108; last 10: 106..115 → 110.5
	if got.MappedAvg != 108*mib || got.Mapped10Avg != 110*mib+mib/2 || got.MappedPeak != 115*mib {
		t.Errorf("mapped %d/%d/%d", got.MappedAvg, got.Mapped10Avg, got.MappedPeak)
	}
	// wall defaults to the series' span (14 s); GC time 150 ms.
	if got.GCCount != 15 || got.GCTime != 150*time.Millisecond || got.GCShare < 0.0107 || got.GCShare > 0.0108 {
		t.Errorf("gc %d %v %.5f", got.GCCount, got.GCTime, got.GCShare)
	}
}

func TestSummariseFirstReadingAfterStartupGCs(t *testing.T) {
	// The first JVM reading already shows GCs that ran during start-up: it is
	// a GC point (the counts rose since the JVM started at zero).
	s := []Sample{gcSample(time.Second, 2, 1, 30*mib, 12*mib, 50*mib)}
	got := Summarise(s, time.Second)
	if got.LivePeak != 12*mib || got.MappedPeak != 50*mib || got.GCCount != 3 {
		t.Errorf("%+v", got)
	}
}

func TestSummariseEmpty(t *testing.T) {
	if got := Summarise(nil, time.Second); !reflect.DeepEqual(got, Summary{}) {
		t.Errorf("empty series: %+v", got)
	}
	noJVM := []Sample{{At: time.Second, RSS: 5 * mib}, {At: 2 * time.Second, RSS: 7 * mib}}
	if got := Summarise(noJVM, 0); got.RSSPeak != 7*mib || got.GCCount != 0 || got.LiveAvg != 0 {
		t.Errorf("no JVM data: %+v", got)
	}
}
