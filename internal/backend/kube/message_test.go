package kube

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/probe"
)

func TestMessageRoundTrip(t *testing.T) {
	r := okResult(testSpec(256 * mi))
	m, err := DecodeMessage(mustMessage(t, Message{Result: r}))
	if err != nil || m.Trimmed || m.Result.Verdict != r.Verdict || m.Result.MemoryPeakBytes != r.MemoryPeakBytes || m.Result.Load.Throughput != 199 {
		t.Fatalf("%+v %v", m, err)
	}
	if _, err := DecodeMessage("OOMKilled"); err == nil {
		t.Error("a message that is not jvmfit's decoded")
	}
}

// A result with a long series outgrows the kubelet's 4096 bytes: the
// message drops the series and says so, the log line keeps all of it.
func TestLargeResultIsTrimmedAndTheLogHasIt(t *testing.T) {
	r := okResult(testSpec(256 * mi))
	for i := range 2000 {
		r.Series = append(r.Series, probe.Sample{RSS: int64(i) * 4096 * 7919, HeapUsed: int64(i) * 31337, Threads: i})
	}
	s := mustMessage(t, Message{Result: r})
	if len(s) > MaxMessage {
		t.Fatalf("message is %d bytes, over %d", len(s), MaxMessage)
	}
	m, err := DecodeMessage(s)
	if err != nil || !m.Trimmed || len(m.Result.Series) != 0 || m.Result.Verdict != r.Verdict || m.Result.MemoryPeakBytes != r.MemoryPeakBytes {
		t.Fatalf("trimmed message: %+v %v", m, err)
	}
	var log bytes.Buffer
	log.WriteString("trial filecache: 256Mi, 1.5 CPUs\nready in 3.20s\n")
	if err := WriteLogLine(&log, r); err != nil {
		t.Fatal(err)
	}
	log.WriteString("a line after it\n")
	full, err := ReadLogLine(&log)
	if err != nil || len(full.Series) != 2000 || full.Series[1999].Threads != 1999 {
		t.Fatalf("log line: %d samples, %v", len(full.Series), err)
	}
	if _, err := ReadLogLine(strings.NewReader("no result here\n")); err == nil {
		t.Error("a log without a result line gave one")
	}
}
