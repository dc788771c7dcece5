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
	largeApp(t, "catalog", 90*size.MiB)
}

// Issue 24's second large service, of another shape (a double-entry
// ledger): also over 15,000 classes, with less metaspace than catalog
// (no Flyway, security or cache): 17,809 classes and 88.4 MiB measured
// at a load average of 1.
func TestLedgerIsLarge(t *testing.T) {
	largeApp(t, "ledger", 70*size.MiB)
}

// largeApp runs workloads/NAME at 768Mi and 1 CPU with its own mix at a
// light rate, and checks, as the probes report them, that it loads over
// 15,000 classes and uses at least minMeta of metaspace.
func largeApp(t *testing.T, name string, minMeta int64) {
	if testing.Short() {
		t.Skip("-short: " + name + " takes up to a minute to start at 1 CPU on a shared machine")
	}
	needRoot(t)
	desc, _ := filepath.Abs("../../workloads/" + name + "/app.yaml")
	a, err := app.Load(desc)
	if err != nil {
		t.Fatalf("%s descriptor: %v", name, err)
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
		t.Fatalf("%s at 768Mi: %s %s %q\n%s", name, r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	var classes, classSpace int64
	for _, s := range r.Series {
		classes = max(classes, s.Classes)
		classSpace = max(classSpace, s.ClassSpaceUsed)
	}
	t.Logf("%s: classes %d, metaspace peak %s, class space used %s", name, classes, size.Format(r.Summary.MetaspacePeak), size.Format(classSpace))
	if classes <= 15000 {
		t.Errorf("%s: loaded classes %d, want over 15,000", name, classes)
	}
	if r.Summary.MetaspacePeak < minMeta {
		t.Errorf("%s: metaspace peak %s, want at least %s", name, size.Format(r.Summary.MetaspacePeak), size.Format(minMeta))
	}
	if r.Load.Requests < 100 {
		t.Errorf("%s: %d requests measured, want the scenario's ~100", name, r.Load.Requests)
	}
}
