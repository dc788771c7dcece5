package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TestMinMemFilecache is the end-to-end search on the real file cache
// service under real cgroups: a narrow range on a coarse grid, a light
// load and short phases keep it to a handful of trials (~2-4 minutes on a
// busy 2-core machine). The answer is not hard-coded: the test checks the
// search's invariants on real verdicts and that every trial was stored.
func TestMinMemFilecache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the real-JVM search")
	}
	prereq.Root(t)
	desc := os.Getenv("JVMFIT_FILECACHE_APP")
	if desc == "" {
		desc = filepath.Join("..", "..", "workloads", "filecache", "app.yaml")
	}
	a, err := app.Load(desc)
	if err != nil {
		t.Fatalf("filecache descriptor: %v", err)
	}
	if a.Jar != "" {
		prereq.Built(t, a.Jar)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &Session{App: a, Store: st, Progress: testLog{t}, LogRoot: t.TempDir(), // KO logs would otherwise stay in /tmp
		Base: trial.Spec{JVM: "default", Rate: 20, Duration: 3 * time.Second,
			Vars: map[string]string{"files": "20", "workers": "4", "warmup": "2s", "duration": "3s"},
			SLO:  "success>=0.95,start<=80s"}}
	if err := s.Begin(store.KindMinMem, nil); err != nil {
		t.Fatal(err)
	}
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"},
		// 64 MiB cannot hold a Spring Boot JVM; 384 MiB holds it easily.
		Search: Search{Min: 64 * size.MiB, Max: 384 * size.MiB, Step: 32 * size.MiB, Repeats: 0, MaxTrials: 8}}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	t0 := time.Now()
	res, err := p.Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	o := res[0].Outcome
	t.Logf("min OK %s, max KO %s, %d trials in %s", size.Format(o.MinOK), size.Format(o.MaxKO), len(o.Trials), time.Since(t0).Round(time.Second))
	if o.MinOK == 0 || o.MaxKO == 0 || o.MinOK <= o.MaxKO || o.MinOK-o.MaxKO != 32*size.MiB {
		t.Fatalf("want a bracket one 32 MiB step wide; got min OK %s, max KO %s (%s)", size.Format(o.MinOK), size.Format(o.MaxKO), o.Note)
	}
	first := o.Trials[0].Result
	if first.Spec.MemoryBytes != 64*size.MiB || first.Verdict != trial.KO {
		t.Fatalf("the first trial, at 64 MiB, was %s %s", first.Verdict, first.Kind)
	}
	ok := o.last(o.MinOK)
	if ok.Verdict != trial.OK || ok.Load == nil || ok.Load.Requests == 0 || ok.StartSeconds <= 0 {
		t.Fatalf("the trial at the minimum is not a measured OK: %+v", ok)
	}
	stored, err := st.Trials(store.Filter{ExperimentID: s.ID, Light: true})
	if err != nil || len(stored) != len(o.Trials) {
		t.Fatalf("%d trials stored, %d run (err %v)", len(stored), len(o.Trials), err)
	}
	rec, err := Recommend(Candidates(res), nil)
	if err != nil || rec.MemoryBytes <= o.MinOK || rec.MemoryBytes%(16*size.MiB) != 0 {
		t.Fatalf("recommendation %+v, %v", rec, err)
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
