package experiment

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// minmem proves a jvmfit mode as it recommends it, through jvmfit exec
// (with the experiment's profile); an option set is recommended, and
// soaked, as its java line.
func TestMinMemSoaksAJvmfitModeThroughExec(t *testing.T) {
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ jvm, launcher string }{{"jvmfit", trial.LauncherExec}, {"set:A", ""}} {
		st := openStore(t)
		s := newSession(t, st, &fake{}, store.KindMinMem)
		s.App, s.Base.Profile = a, "/p/profile.json"
		var got trial.Spec
		s.Run = func(_ context.Context, sp trial.Spec) (*trial.Result, error) {
			got = sp
			return &trial.Result{Spec: sp, Verdict: trial.OK}, nil
		}
		rec := &Recommendation{JVM: c.jvm, CPUs: 1, MemoryBytes: 128 * mi, MinOKBytes: 128 * mi}
		if err := (MinMemPlan{}).Soak(context.Background(), s, rec, time.Minute); err != nil {
			t.Fatal(err)
		}
		if got.Launcher != c.launcher || rec.ViaExec != (c.launcher != "") {
			t.Errorf("%s: soak launcher %q (via exec %v), want %q", c.jvm, got.Launcher, rec.ViaExec, c.launcher)
		}
		if c.launcher != "" && rec.Profile != "/p/profile.json" {
			t.Errorf("%s: the exec entrypoint's profile is %q, want the one planned with", c.jvm, rec.Profile)
		}
	}
}
