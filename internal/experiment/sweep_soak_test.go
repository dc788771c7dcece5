package experiment

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// matrixSession is a sweep's (or compare's) session on a descriptor whose
// command is a jar, so a jvmfit mode can run through jvmfit exec, planned
// with a profile.
func matrixSession(t *testing.T, f *fake, kind string) (*Session, *store.Store) {
	t.Helper()
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	s := newSession(t, st, f, kind)
	s.App, s.Base.Profile = a, "/p/profile.json"
	return s, st
}

// soaks are the stored soak trials of the session's experiment.
func soaks(t *testing.T, st *store.Store, s *Session) []*trial.Result {
	var out []*trial.Result
	for _, r := range stored(t, st, s) {
		if r.Spec.Soak {
			out = append(out, r)
		}
	}
	return out
}

// A sweep with --soak proves its recommendation as minmem does: a jvmfit
// mode through jvmfit exec with the profile, at the rate the answer was
// judged at; an option set as its java line.
func TestSweepSoaksItsRecommendationAsRecommended(t *testing.T) {
	for _, c := range []struct {
		kind, jvm, launcher string
	}{
		{store.KindSweep, "jvmfit", trial.LauncherExec},
		{store.KindCompare, "set:A", ""},
	} {
		f := &fake{okAt: map[string]int64{c.jvm: 128 * mi}}
		s, st := matrixSession(t, f, c.kind)
		var progress strings.Builder
		s.Progress = &progress
		// 200 req/s passes at 1 CPU, 400 does not (the fake serves 300 per
		// CPU): the answer is judged at 200.
		sw := Sweep{Cells: Axes{JVMs: []string{c.jvm}, Memory: []int64{112 * mi, 128 * mi, 160 * mi}, Rates: []float64{200, 400}, CPUs: []float64{1}}.Cells(s.Base),
			SoakFor: 2 * time.Minute}
		_, ans, err := sw.Conclude(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		rec := ans.Rec
		if rec == nil || len(rec.Soak) != 1 || !rec.Tested {
			t.Fatalf("%s: want one passing soak, got %+v", c.jvm, rec)
		}
		got := soaks(t, st, s)
		if len(got) != 1 {
			t.Fatalf("%s: %d soak trials stored, want 1", c.jvm, len(got))
		}
		sp := got[0].Spec
		if sp.Launcher != c.launcher || rec.ViaExec != (c.launcher != "") {
			t.Errorf("%s: soak launcher %q (via exec %v), want %q", c.jvm, sp.Launcher, rec.ViaExec, c.launcher)
		}
		if sp.MemoryBytes != rec.MemoryBytes || sp.Rate != 200 || sp.Duration != 2*time.Minute || sp.JVM != c.jvm {
			t.Errorf("%s: soak at %d bytes, %g req/s, %v, %s; want the recommendation's %d at 200 req/s for 2m", c.jvm,
				sp.MemoryBytes, sp.Rate, sp.Duration, sp.JVM, rec.MemoryBytes)
		}
		// 6 cells and the soak: the soak's line is the last of 7, never
		// past the total.
		if lines := strings.Split(strings.TrimSpace(progress.String()), "\n"); len(lines) != 7 || !strings.HasPrefix(lines[6], "[7/7]") {
			t.Errorf("%s: progress lines, want the soak as [7/7]:\n%s", c.jvm, progress.String())
		}
		if c.launcher != "" && rec.Profile != "/p/profile.json" {
			t.Errorf("%s: the exec entrypoint's profile is %q, want the one planned with", c.jvm, rec.Profile)
		}
	}
}

// Without --soak a sweep's or compare's recommendation is labelled not
// proven, with the jvmfit run that proves it as recommended: a jvmfit mode
// through jvmfit exec (--via-exec) with its profile.
func TestSweepWithoutSoakIsLabelledNotProven(t *testing.T) {
	for _, c := range []struct{ kind, jvm string }{{store.KindSweep, "jvmfit"}, {store.KindCompare, "set:A"}} {
		f := &fake{okAt: map[string]int64{c.jvm: 128 * mi}}
		s, st := matrixSession(t, f, c.kind)
		var progress strings.Builder
		s.Progress = &progress
		sw := Sweep{Cells: Axes{JVMs: []string{c.jvm}, Memory: []int64{112 * mi, 128 * mi}, CPUs: []float64{1}}.Cells(s.Base)}
		_, ans, err := sw.Conclude(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(soaks(t, st, s)); n != 0 {
			t.Errorf("%s: %d soaks without --soak", c.jvm, n)
		}
		if ans.Rec == nil {
			t.Fatalf("%s: no recommendation: %v", c.jvm, ans.WhyNot)
		}
		// report.ProveCommand renders the proof from these values
		// (report/recommendation_test.go).
		rec := ans.Rec
		if len(rec.Soak) != 0 || rec.App != s.Base.App || rec.Rate != 100 || rec.Java != "/jdk/bin/java" ||
			(rec.Profile != "") != (c.jvm == "jvmfit") {
			t.Errorf("%s: the unproven answer %+v: want no soak, the app, 100 req/s, the java, a profile only for jvmfit", c.jvm, rec)
		}
	}
}
