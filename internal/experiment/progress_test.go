package experiment

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// The ETA counts only cells actually run: after a resume, reused cells
// must not make the rest look instant.
func TestProgressETA(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b) // not a terminal: one line per cell
	p.Start(4)
	ok := &trial.Result{Verdict: trial.OK}
	p.Done(CellResult{Cell: Cell{JVM: "default", CPUs: 1, MemoryBytes: 256 * mi, Rate: 100}, Result: ok, Reused: true}, time.Millisecond)
	p.Done(CellResult{Cell: Cell{JVM: "default", CPUs: 1, MemoryBytes: 256 * mi, Rate: 200}, Result: ok}, 40*time.Second)
	p.Finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one line per cell, got:\n%s", b.String())
	}
	if !strings.Contains(lines[0], "[1/4]") || !strings.Contains(lines[0], "[from store]") || !strings.Contains(lines[0], "ETA ?") {
		t.Errorf("first line: %q", lines[0])
	}
	// One cell run in 40 s, two left: 1m20s.
	if !strings.Contains(lines[1], "[2/4] cpus=1 memory=256Mi rate=200 jvm=default: OK in 40s, ETA 1m20s") {
		t.Errorf("second line: %q", lines[1])
	}
}

func TestProgressBarWrites(t *testing.T) {
	var b bytes.Buffer
	p := &barProgress{w: &b}
	p.Start(2)
	p.Done(CellResult{Cell: Cell{JVM: "jvmfit", CPUs: 2, MemoryBytes: 512 * mi}, Result: &trial.Result{Verdict: trial.KO, Kind: "oom-killed"}}, 10*time.Second)
	p.Finish()
	if out := b.String(); !strings.Contains(out, "KO (oom-killed)") || !strings.Contains(out, "ETA 10s") {
		t.Fatalf("bar output lacks the cell or the ETA: %q", out)
	}
}
