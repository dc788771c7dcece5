//go:build linux

package trial

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

// filecache loads the sample service's descriptor, or skips when the jar
// has not been built (make workloads).
func filecache(t *testing.T) *app.App {
	t.Helper()
	needRoot(t)
	desc, _ := filepath.Abs("../../workloads/filecache/app.yaml")
	a, err := app.Load(desc)
	if err != nil {
		t.Fatalf("filecache descriptor: %v", err)
	}
	prereq.Built(t, a.Jar)
	return a
}

// A light scenario: few files, 20 req/s, short phases; the SLO asks only
// that it answers, as latency on a shared 2-CPU machine is not ours to judge.
func lightFilecache(mem int64) Spec {
	return Spec{MemoryBytes: mem, CPUs: 1, Rate: 20, Warmup: 3 * time.Second, Duration: 5 * time.Second,
		Vars: map[string]string{"files": "20", "workers": "4"}, SLO: "success>=0.99,start<=120s"}
}

func TestFilecacheKOAtTinyLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: filecache takes a minute or more to start on a shared machine")
	}
	a := filecache(t)
	a.ReadyTimeout = 60 * time.Second
	spec := prepared(t, a, lightFilecache(64*size.MiB))
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != KO || (r.Kind != KindOOMKilled && r.Kind != KindNotReady) {
		t.Fatalf("filecache at 64Mi: %s %s %q, want KO oom-killed or not-ready", r.Verdict, r.Kind, r.Failed)
	}
}

func TestFilecacheOKAt512Mi(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: filecache takes a minute or more to start on a shared machine")
	}
	a := filecache(t)
	a.ReadyTimeout = 150 * time.Second
	spec := prepared(t, a, lightFilecache(512*size.MiB))
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != OK {
		t.Fatalf("filecache at 512Mi: %s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if r.Load.Requests < 80 || r.HeapMaxBytes != 128*size.MiB {
		t.Errorf("requests %d, heap max %s (JDK 17 gives 25%% of 512Mi)", r.Load.Requests, size.Format(r.HeapMaxBytes))
	}
	if r.Summary.GCCount == 0 || r.Summary.MetaspacePeak < 20*size.MiB {
		t.Errorf("hsperf figures missing: %+v", r.Summary)
	}
}
