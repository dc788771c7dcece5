package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The plan stores every trial as it ends, gives repeats distinct keys, and
// turns a limit the launcher refuses to plan into a stored KO that costs no
// trial.
func TestMinMemPlanStoresAndRefuses(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	expID, _ := st.NewExperiment("plan", store.KindMinMem, nil)
	prepare := func(s trial.Spec) (trial.Spec, error) {
		s.Java, s.JDKVersion = "/usr/bin/java", 17
		if s.JVM == "jvmfit" {
			if s.MemoryBytes < 96*mi {
				return s, fmt.Errorf("--jvm jvmfit: %w", &plan.RefusedError{LimitBytes: s.MemoryBytes, MinBytes: 96 * mi, Why: "too small for any heap"})
			}
			s.JVMOptions = []string{fmt.Sprintf("-Xmx%dm", s.MemoryBytes/mi/2)}
		}
		return s, nil
	}
	ran := 0
	run := func(_ context.Context, s trial.Spec) (*trial.Result, error) {
		ran++
		v := trial.KO
		if (s.JVM == "jvmfit" && s.MemoryBytes >= 96*mi) || s.MemoryBytes >= 144*mi {
			v = trial.OK
		}
		return &trial.Result{Spec: s, Key: s.Key(), Verdict: v, Kind: map[string]string{trial.KO: trial.KindOOMKilled}[v]}, nil
	}
	p := MinMemPlan{Base: trial.Spec{App: "a.yaml"}, CPUs: []float64{1}, JVMs: []string{"default", "jvmfit"},
		Search: DefaultSearch, Prepare: prepare, Trial: run, Store: st, ExperimentID: expID}
	res, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Outcome.MinOK != 144*mi || res[1].Outcome.MinOK != 96*mi {
		t.Fatalf("min OK default %s, jvmfit %s; want 144Mi, 96Mi", size.Format(res[0].Outcome.MinOK), size.Format(res[1].Outcome.MinOK))
	}
	stored, err := st.Trials(store.Filter{ExperimentID: expID, Light: true})
	if err != nil {
		t.Fatal(err)
	}
	total := len(res[0].Outcome.Trials) + len(res[1].Outcome.Trials)
	if len(stored) != total {
		t.Fatalf("%d stored, %d in the searches", len(stored), total)
	}
	keys, refused := map[string]bool{}, 0
	for _, r := range stored {
		if keys[r.Key] {
			t.Fatalf("two stored trials share key %s (repeats must differ)", r.Key)
		}
		keys[r.Key] = true
		if r.Kind == KindRefused {
			refused++
			if r.Spec.JVM != "jvmfit" || r.Spec.MemoryBytes >= 96*mi || r.Spec.JDKVersion != 17 || !strings.Contains(r.Failed[0], "too small") {
				t.Fatalf("refused trial %+v", r.Spec)
			}
		}
	}
	if refused == 0 || ran != total-refused {
		t.Fatalf("%d refused, %d run of %d: refused limits must not run", refused, ran, total)
	}
	rec, err := Recommend(Candidates(res), nil)
	if err != nil || rec.JVM != "jvmfit" || rec.MemoryBytes != 112*mi {
		t.Fatalf("recommendation %+v, %v; want jvmfit at 112Mi", rec, err)
	}
}

// Only the launcher's refusal is a free KO: any other error preparing a
// limit (a JDK gone, an option file deleted mid-run) stops the search
// instead of being stored as a verdict on the app.
func TestMinMemPlanPrepareErrorIsNotRefused(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	expID, _ := st.NewExperiment("plan", store.KindMinMem, nil)
	prepare := func(s trial.Spec) (trial.Spec, error) {
		if s.MemoryBytes < 1*size.GiB {
			return s, fmt.Errorf("java vanished")
		}
		return s, nil
	}
	run := func(_ context.Context, s trial.Spec) (*trial.Result, error) {
		t.Fatalf("no trial should run, got %s", size.Format(s.MemoryBytes))
		return nil, nil
	}
	p := MinMemPlan{Base: trial.Spec{App: "a.yaml"}, CPUs: []float64{1}, JVMs: []string{"jvmfit"},
		Search: DefaultSearch, Prepare: prepare, Trial: run, Store: st, ExperimentID: expID}
	_, err = p.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "java vanished") {
		t.Fatalf("err = %v; want the prepare error", err)
	}
	stored, _ := st.Trials(store.Filter{ExperimentID: expID, Light: true})
	if len(stored) != 0 {
		t.Fatalf("%d trials stored for a prepare error; want none", len(stored))
	}
}
