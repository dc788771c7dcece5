package tune

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// tune's soak is a jvmfit trial launched through jvmfit exec with the
// profile written to a file named by its digest: the same file, and the
// same key, when the tune resumes with the profile trial's stored copy.
func TestTuneSoakRunsThroughExecWithTheProfileFile(t *testing.T) {
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &experiment.Session{Base: trial.Spec{App: "fake.yaml", AppName: "fake", JVM: "default", SLO: "success>=0.99", Rate: 100},
		Store: st, App: a, Prepare: func(s trial.Spec) (trial.Spec, error) {
			s.Java, s.JDKVersion = "/jdk/bin/java", 17
			return s, nil
		}}
	if err := s.Begin("tune", nil); err != nil {
		t.Fatal(err)
	}
	var ran []trial.Spec
	s.Run = func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
		ran = append(ran, sp)
		return &trial.Result{Spec: sp, Key: sp.Key(), Verdict: trial.OK}, nil
	}
	dir := t.TempDir()
	ts := &SessionTrials{Session: s, Goal: plan.Footprint, ProfileDir: dir,
		Planner: func(Point) (*plan.Plan, error) { return &plan.Plan{Options: []string{"-Xmx32m"}}, nil }}
	prof := &plan.Profile{Version: 1, MetaspaceUsedBytes: 30 * tmib, Trial: 7}
	p := Point{Purpose: PurposeSoak, MemoryBytes: 128 * tmib, CPUs: 1, Candidate: "serial-c1", Soak: time.Minute,
		Options: []string{"-XX:+UseSerialGC"}, Profile: prof}
	if _, err := ts.Soak(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	sp := ran[0]
	if sp.Launcher != trial.LauncherExec || sp.JVM != "jvmfit:footprint" || !slices.Equal(sp.UserOptions, p.Options) ||
		!sp.Soak || sp.Duration != time.Minute {
		t.Fatalf("soak spec %+v: want jvmfit:footprint through exec with the candidate's options", sp)
	}
	loaded, err := plan.LoadProfile(sp.Profile)
	if err != nil || loaded.MetaspaceUsedBytes != prof.MetaspaceUsedBytes {
		t.Fatalf("the soak's profile file %s: %v", sp.Profile, err)
	}
	resumed := *prof
	resumed.Trial = 12 // the resumed tune's copy of the profile trial
	p.Profile = &resumed
	if _, reused, err := s.Trial(context.Background(), mustSpec(t, ts, p), "again"); err != nil || !reused {
		t.Fatalf("the resumed soak was not taken from the store (reused %v, err %v)", reused, err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("%d profile files, want 1", len(files))
	}
}

func mustSpec(t *testing.T, ts *SessionTrials, p Point) trial.Spec {
	t.Helper()
	sp, err := ts.spec(p)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
