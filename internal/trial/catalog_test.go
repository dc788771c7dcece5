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

// Issue 13's large service is only a test case if it is large: the planner's
// fixed metaspace rule under-sizes it because it loads over 15,000 classes
// and uses over 90 MiB of metaspace. This trial checks both on the real jar,
// as the probes report them, so a change that slims the app (or breaks the
// probes' class and metaspace readings) shows here.
func TestCatalogIsLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: catalog takes up to a minute to start at 1 CPU on a shared machine")
	}
	needRoot(t)
	desc, _ := filepath.Abs("../../workloads/catalog/app.yaml")
	a, err := app.Load(desc)
	if err != nil {
		t.Fatalf("catalog descriptor: %v", err)
	}
	prereq.Built(t, a.Jar)
	a.ReadyTimeout = 150 * time.Second
	// Its own mix at a light rate; latency on a shared 2-CPU machine is not judged.
	spec := prepared(t, a, Spec{MemoryBytes: 768 * size.MiB, CPUs: 1, Rate: 10,
		Warmup: 5 * time.Second, Duration: 10 * time.Second, SLO: "success>=0.99,start<=150s"})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != OK {
		t.Fatalf("catalog at 768Mi: %s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	var classes, classSpace int64
	for _, s := range r.Series {
		classes = max(classes, s.Classes)
		classSpace = max(classSpace, s.ClassSpaceUsed)
	}
	t.Logf("classes %d, metaspace peak %s, class space used %s", classes, size.Format(r.Summary.MetaspacePeak), size.Format(classSpace))
	if classes <= 15000 {
		t.Errorf("loaded classes %d, want over 15,000", classes)
	}
	if r.Summary.MetaspacePeak < 90*size.MiB {
		t.Errorf("metaspace peak %s, want at least 90Mi", size.Format(r.Summary.MetaspacePeak))
	}
	if r.Load.Requests < 100 {
		t.Errorf("%d requests measured, want the scenario's ~100", r.Load.Requests)
	}
}
