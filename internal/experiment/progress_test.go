package experiment

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Not on a terminal, a line that rewrites itself becomes plain lines: no
// \r, no escape sequence, one version every progressEvery plus the last.
func TestProgressWriterPlainLines(t *testing.T) {
	var b bytes.Buffer
	w := ProgressWriter(&b) // a buffer is no terminal
	p := w.(*plainLines)
	now := time.Unix(0, 0)
	p.now = func() time.Time { return now }
	w.Write([]byte("ready in 2.1s\n"))
	for i := 1; i <= 60; i++ { // 30 s at the load generator's two updates a second
		now = now.Add(500 * time.Millisecond)
		// Split writes: an escape sequence may arrive in pieces.
		w.Write([]byte("\r\033"))
		w.Write([]byte("[K"))
		w.Write([]byte("measure " + time.Duration(i*500*int(time.Millisecond)).String() + " requests"))
	}
	w.Write([]byte("\n"))
	out := b.String()
	if strings.ContainsAny(out, "\r\033") {
		t.Fatalf("control characters left: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{"ready in 2.1s", "measure 500ms requests", "measure 10.5s requests", "measure 20.5s requests", "measure 30s requests"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// The ETA counts only trials actually run: after a resume, reused ones
// must not make the rest look instant.
func TestProgressLineETA(t *testing.T) {
	var b bytes.Buffer
	s := newSession(t, openStore(t), &fake{}, store.KindSweep)
	s.Progress = &b
	s.Expect(4)
	ok := &trial.Result{Verdict: trial.OK, StartSeconds: 1.5}
	s.progressLine("cpus=1 memory=256Mi rate=100 jvm=default", ok, true, time.Millisecond)
	s.progressLine("cpus=1 memory=256Mi rate=200 jvm=default", ok, false, 40*time.Second)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "[1/4]") || !strings.Contains(lines[0], "from the store") || !strings.Contains(lines[0], "ETA ?") {
		t.Fatalf("lines: %q", lines)
	}
	// One trial run in 40 s, two left: 1m20s.
	if !strings.Contains(lines[1], "[2/4] cpus=1 memory=256Mi rate=200 jvm=default: OK (1.5s start, 0req/s) in 40s, ETA 1m20s") {
		t.Errorf("second line: %q", lines[1])
	}
}
