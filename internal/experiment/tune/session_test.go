package tune

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TestTuneSessionTrials drives SessionTrials over a real Session and SQLite
// store with a fake trial function: the specs it makes, reuse of a stored
// identical trial, a refused limit, and the archive check of training runs.
func TestTuneSessionTrials(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ran []trial.Spec
	var sess *experiment.Session
	var graces []time.Duration // the stop grace each training run had
	run := func(_ context.Context, s trial.Spec) (*trial.Result, error) {
		ran = append(ran, s)
		if f := archiveOf(s.JVMOptions); f != "" {
			graces = append(graces, s.StopGrace)
			if strings.Contains(f, "good") {
				os.WriteFile(f, []byte("archive"), 0o644)
			}
		}
		r := &trial.Result{Spec: s, Key: s.Key(), Verdict: trial.OK, StartSeconds: 1.5, MemoryPeakBytes: 90 * tmib,
			StartedAt: time.Unix(0, 0), EndedAt: time.Unix(20, 0), Load: &record.Report{}}
		r.Load.Latencies.P99 = 7 * time.Millisecond
		r.Summary.Throttled = 2 * time.Second
		return r, nil
	}
	sess = &experiment.Session{Base: trial.Spec{App: "fake.yaml", AppName: "fake", SLO: "success>=0.99", Rate: 50}, Store: st,
		Prepare: func(s trial.Spec) (trial.Spec, error) {
			s.Java, s.JDKVersion = "/jdk/bin/java", 17
			s.JVMOptions = s.UserOptions
			return s, nil
		}, Run: run}
	if err := sess.Begin("tune", nil); err != nil {
		t.Fatal(err)
	}
	ts := &SessionTrials{Session: sess, TrainingGrace: time.Minute, Planner: func(p Point) (*plan.Plan, error) {
		if p.MemoryBytes < 64*tmib {
			return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: 64 * tmib, Why: "test"}
		}
		return &plan.Plan{Options: []string{"-Xmx32m"}}, nil
	}}
	ctx := context.Background()
	prof, err := ts.Run(ctx, Point{Purpose: PurposeProfile, MemoryBytes: 512 * tmib, CPUs: 1})
	if err != nil || !ran[0].NMT || len(ran[0].JVMOptions) != 0 || ran[0].MemoryBytes != 512*tmib {
		t.Fatalf("profile trial %+v: %v", ran[0], err)
	}
	if prof.Profile != nil || len(prof.Notes) == 0 {
		t.Errorf("a profile trial without samples gave profile %+v, notes %v; want none and a note why", prof.Profile, prof.Notes)
	}
	if prof.P99 != 7*time.Millisecond || prof.Throttling != 0.1 || prof.TrialID == 0 || prof.Wall != 20*time.Second {
		t.Errorf("outcome %+v", prof)
	}
	search := Point{Purpose: PurposeSearch, MemoryBytes: 96 * tmib, CPUs: 1, Candidate: "c", Options: []string{"-XX:+UseSerialGC"}}
	if _, err := ts.Run(ctx, search); err != nil || !slices.Equal(ran[1].JVMOptions, []string{"-Xmx32m", "-XX:+UseSerialGC"}) {
		t.Errorf("search trial options %v: %v; want the launcher's then the candidate's", ran[1].JVMOptions, err)
	}
	if _, err := ts.Run(ctx, search); err != nil || len(ran) != 2 {
		t.Errorf("the same point ran again (%d trials): %v", len(ran), err)
	}
	soak := search
	soak.Purpose, soak.Soak = PurposeSoak, time.Minute
	if _, err := ts.Soak(ctx, soak); err != nil || len(ran) != 3 || !ran[2].Soak || ran[2].Duration != time.Minute {
		t.Errorf("soak spec %+v: %v", ran[len(ran)-1], err)
	}
	low := search
	low.MemoryBytes = 48 * tmib
	if o, err := ts.Run(ctx, low); err != nil || o.Verdict != trial.KO || o.Kind != KindRefused || len(ran) != 3 {
		t.Errorf("refused limit: %+v, %v, %d trials", o, err, len(ran))
	}
	for _, c := range []struct {
		file string
		want trial.Verdict
	}{{"good.jsa", trial.OK}, {"lost.jsa", trial.KO}} {
		f := filepath.Join(dir, c.file)
		o, err := ts.Run(ctx, Point{Purpose: PurposeTraining, MemoryBytes: 512 * tmib, CPUs: 1, Options: []string{"-XX:ArchiveClassesAtExit=" + f}})
		if err != nil || o.Verdict != c.want {
			t.Errorf("training writing %s: %+v, %v; want %s", c.file, o, err, c.want)
		}
	}
	if !slices.Equal(graces, []time.Duration{time.Minute, time.Minute}) {
		t.Errorf("training runs had stop graces %v; want 1m each", graces)
	}
	if !ran[0].FullGCAtEnd || ran[1].FullGCAtEnd || ran[0].StopGrace != 0 {
		t.Errorf("the profile trial's full GC %v (want it), a search trial's %v (want none), its stop grace %v (want the runner's)",
			ran[0].FullGCAtEnd, ran[1].FullGCAtEnd, ran[0].StopGrace)
	}
	// A search point held as long as the soak (hold.go) runs for the
	// soak's length with the search's options, not as a soak, and is
	// stored as a repeat.
	held := search
	held.Soak, held.Repeat = time.Minute, 1
	n := len(ran)
	if _, err := ts.Run(ctx, held); err != nil || len(ran) != n+1 {
		t.Fatalf("held point: %v, %d trials", err, len(ran)-n)
	}
	if h := ran[n]; h.Duration != time.Minute || h.Soak || !slices.Equal(h.JVMOptions, ran[1].JVMOptions) {
		t.Errorf("held point's spec: duration %v, soak %v, options %v; want 1m, no soak, the search's options", h.Duration, h.Soak, h.JVMOptions)
	}
	// The store keeps each trial's role and candidate, and the options as
	// a list: the reused search trial is stored again as a search.
	rs, err := st.Trials(store.Filter{ExperimentID: sess.ID, Light: true})
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, r := range rs {
		roles = append(roles, r.Spec.Purpose+"/"+r.Spec.Candidate)
	}
	want := []string{"profile/", "search/c", "search/c", "soak/c", "training/", "training/", "repeat/c"}
	if !slices.Equal(roles, want) {
		t.Errorf("stored roles %v, want %v", roles, want)
	}
	if s := rs[1].Spec; s.JVM != "default" || !slices.Equal(s.UserOptions, []string{"-Xmx32m", "-XX:+UseSerialGC"}) {
		t.Errorf("a search trial's spec has JVM %q and user options %q; want the options as a list", s.JVM, s.UserOptions)
	}
}
