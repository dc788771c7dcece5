package hsperf

import (
	"encoding/binary"
	"testing"
	"time"
)

func gcSnapshot(t *testing.T, entry, exit int64) JVM {
	t.Helper()
	s, err := Parse(encode(binary.LittleEndian, []testEntry{
		{name: "sun.os.hrt.frequency", long: 1000},
		{name: "sun.gc.policy.name", str: "Copy:MSC", isStr: true},
		{name: "sun.gc.collector.0.invocations", long: 3},
		{name: "sun.gc.collector.0.time", long: 30},
		{name: "sun.gc.collector.1.invocations", long: 2},
		{name: "sun.gc.collector.1.time", long: 500},
		{name: "sun.gc.collector.1.lastEntryTime", long: entry},
		{name: "sun.gc.collector.1.lastExitTime", long: exit},
		{name: "sun.gc.generation.0.maxCapacity", long: 1 << 20},
		{name: "sun.gc.generation.1.maxCapacity", long: 3 << 20},
		{name: "sun.gc.generation.1.spaces", long: 1},
		{name: "sun.gc.generation.1.space.0.used", long: 12345},
	}))
	if err != nil {
		t.Fatal(err)
	}
	return s.JVM()
}

// The JVM bumps a collector's count when a GC starts; a reading taken
// before it ends must not count it yet.
func TestJVMCountsOnlyFinishedGCs(t *testing.T) {
	done := gcSnapshot(t, 100, 120)
	if done.InGC || done.OldGCs != 2 || done.YoungGCs != 3 {
		t.Errorf("finished: %+v", done)
	}
	running := gcSnapshot(t, 130, 120)
	if !running.InGC || running.OldGCs != 1 || !running.Collectors[1].InProgress || running.Collectors[1].Invocations != 2 {
		t.Errorf("running: %+v", running)
	}
	if done.GCTime != 530*time.Millisecond || done.OldGCTime != 500*time.Millisecond {
		t.Errorf("gc time %v old %v", done.GCTime, done.OldGCTime)
	}
	if done.HeapMax != 4<<20 || done.Old.Used != 12345 || done.Policy != "Copy:MSC" {
		t.Errorf("heap %+v", done)
	}
}
