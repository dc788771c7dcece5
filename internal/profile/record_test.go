package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/size"
)

func jvmSample(oldGCs, oldUsed, meta int64, threads int) probe.Sample {
	return probe.Sample{HeapCommitted: 64 * size.MiB, OldGCs: oldGCs, OldUsed: oldUsed, MetaspaceUsed: meta, Threads: threads, Classes: 3000}
}

func recInput(lab *plan.Profile) plan.Input {
	in := plan.Input{Limits: cgroup.Limits{SwapBytes: -1}.Override(256*size.MiB, 1, nil), Profile: lab, Goal: "balanced"}
	in.JDK.Version, in.JDK.Vendor = 17, "Debian"
	return in
}

// The live set is old-gen used right after an old GC, across windows: a
// window that starts with old GCs already counted does not take its first
// sample (no GC there) for one.
func TestRecorderLiveSetAcrossWindows(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.json")
	r := NewRecorder(file, "orders", []string{"-Xmx100m"}, recInput(nil), nil)
	w1 := []probe.Sample{jvmSample(0, 5*size.MiB, 30*size.MiB, 20), jvmSample(1, 10*size.MiB, 31*size.MiB, 22)}
	w2 := []probe.Sample{jvmSample(1, 40*size.MiB, 31*size.MiB, 25), jvmSample(2, 20*size.MiB, 32*size.MiB, 21)}
	if err := r.Window(w1, false); err != nil {
		t.Fatal(err)
	}
	if err := r.Window(w2, true); err != nil {
		t.Fatal(err)
	}
	p, err := plan.LoadProfile(file)
	if err != nil {
		t.Fatal(err)
	}
	if p.LiveHeapBytes != 20*size.MiB || p.MetaspaceUsedBytes != 32*size.MiB || p.PeakThreads != 25 || p.LoadedClasses != 3000 {
		t.Errorf("peaks %+v: want live 20Mi (after the second old GC), metaspace 32Mi, 25 threads", p)
	}
	if p.App != "orders" || p.JDKVersion != 17 || p.MemoryLimitBytes != 256*size.MiB || p.Options[0] != "-Xmx100m" {
		t.Errorf("identity %+v", p)
	}
	ents, _ := os.ReadDir(filepath.Dir(file))
	if len(ents) != 1 {
		t.Errorf("files beside the profile: %v (a temporary file left)", ents)
	}
	// The next start of the same app raises the file's peaks, never lowers
	// them; another app's file starts afresh.
	r = NewRecorder(file, "orders", nil, recInput(nil), nil)
	r.Window([]probe.Sample{jvmSample(0, 0, 10*size.MiB, 40)}, true)
	p, _ = plan.LoadProfile(file)
	if p.LiveHeapBytes != 20*size.MiB || p.PeakThreads != 40 || p.MetaspaceUsedBytes != 32*size.MiB {
		t.Errorf("after a second start: %+v", p)
	}
	r = NewRecorder(file, "billing", nil, recInput(nil), nil)
	r.Window([]probe.Sample{jvmSample(0, 0, 10*size.MiB, 12)}, true)
	p, _ = plan.LoadProfile(file)
	if p.App != "billing" || p.LiveHeapBytes != 0 || p.PeakThreads != 12 {
		t.Errorf("another app's start kept the old peaks: %+v", p)
	}
}

// With a lab profile, the diff line is printed the first time production
// exceeds it and at the end, not at every window.
func TestRecorderDiffLine(t *testing.T) {
	lab := &plan.Profile{Version: 1, App: "orders", PeakThreads: 20, MetaspaceUsedBytes: 32 * size.MiB}
	var log bytes.Buffer
	r := NewRecorder(filepath.Join(t.TempDir(), "p.json"), "orders", nil, recInput(lab), &log)
	r.Window([]probe.Sample{jvmSample(0, 0, 30*size.MiB, 20)}, false)
	if log.Len() != 0 {
		t.Fatalf("a line before anything exceeds: %s", log.String())
	}
	r.Window([]probe.Sample{jvmSample(0, 0, 30*size.MiB, 40)}, false)
	r.Window([]probe.Sample{jvmSample(0, 0, 30*size.MiB, 41)}, false)
	r.Window(nil, true)
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "threads 40 > 20") || !strings.Contains(lines[1], "threads 41 > 20") ||
		!strings.HasPrefix(lines[1], "jvmfit: profile: production exceeds") || !strings.Contains(lines[1], "--profile ") {
		t.Errorf("lines %q: want the first exceed and the end", lines)
	}
}
