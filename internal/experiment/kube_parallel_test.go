package experiment_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend/kube"
	"github.com/jvmfit/jvmfit/internal/backend/kube/kubetest"
	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const kmi = 1 << 20

func TestMain(m *testing.M) {
	code := m.Run()
	kubetest.Stop()
	os.Exit(code)
}

// edgeApp is the fake app the test's kubelet runs: its pods' agents
// report OK from edge up, and an OOM kill below it.
func edgeApp(t *testing.T, edge int64) kubetest.Fate {
	return func(_ string, p *corev1.Pod) {
		task, err := kube.DecodeTask(kubetest.Env(p.Spec, kube.AgentContainer, kube.TaskEnv))
		if err != nil {
			t.Errorf("the pod's task: %v", err)
			return
		}
		r := &trial.Result{Spec: task.Spec, Key: task.Spec.Key(), Verdict: trial.OK, StartedAt: time.Now(), EndedAt: time.Now()}
		if task.Spec.MemoryBytes < edge {
			r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindOOMKilled, []string{"OOM-killed"}
		}
		msg, err := kube.EncodeMessage(kube.Message{Result: r})
		if err != nil {
			t.Error(err)
		}
		kubetest.Ended(p, kube.AgentContainer, msg)
	}
}

// kubeApp is an image app with a fixed port and a scenario, as the
// Kubernetes backend needs.
func kubeApp(t *testing.T) *app.App {
	sc := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(sc, []byte("phases: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &app.App{Name: "edge", Image: "edge:17", Port: 8080, Ready: "http://127.0.0.1:${port}/", ReadyTimeout: time.Minute,
		SLO: "success>=0.99", Rate: 50, Scenario: sc}
}

// minmemOnKube runs a minmem at --parallel n against envtest's API
// server, through kube.Open as --backend k8s does, with the test's
// kubelet holding each pod hold before its agent reports; it returns the
// answer, the rounds, and the most Jobs the API server held at once.
func minmemOnKube(t *testing.T, n int, edge int64) (*experiment.Outcome, int) {
	kc := kubetest.Kubeconfig(t)
	_, c := kubetest.APIServer(t)
	ns := kubetest.Namespace(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	k := kubetest.StartKubeletHolding(t, ctx, c, ns, kube.LabelManagedBy+"="+kube.ManagedBy, 600*time.Millisecond, edgeApp(t, edge))
	db := filepath.Join(t.TempDir(), "e.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &experiment.Session{App: kubeApp(t), Store: st,
		Base: trial.Spec{App: "edge.yaml", AppName: "edge", JVM: "default", SLO: "success>=0.99", Rate: 50},
		Prepare: func(sp trial.Spec) (trial.Spec, error) {
			sp.Java, sp.JDKVersion, sp.Image = "/opt/java/bin/java", 17, "edge:17"
			return sp, nil
		}}
	if _, err := s.UseBackend(ctx, experiment.BackendConfig{Name: "k8s", Parallel: n, Kubeconfig: kc, Namespace: ns}, db); err != nil {
		t.Fatal(err)
	}
	if err := s.Begin(store.KindMinMem, nil); err != nil {
		t.Fatal(err)
	}
	p := experiment.MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"}, Search: experiment.Search{Min: 64 * kmi, Max: 1024 * kmi, Step: 8 * kmi}}
	res, err := p.Run(ctx, s)
	if err != nil || len(res) != 1 {
		t.Fatalf("--parallel %d: %v", n, err)
	}
	cancel()
	kubetest.AssertGone(t, c, ns)
	if got := len(k.JobNames()); got != len(res[0].Outcome.Trials) {
		t.Errorf("--parallel %d: %d Jobs for %d trials", n, got, len(res[0].Outcome.Trials))
	}
	return res[0].Outcome, k.MaxJobs()
}

// A minmem at --parallel 4 on Kubernetes: each round's four Jobs exist
// at once in the API server, every Job and pod is gone at the end, and
// the answer is --parallel 1's on the same app, in fewer rounds than
// trials one at a time.
func TestMinMemParallelOnKubernetes(t *testing.T) {
	const edge = 300 * kmi
	seq, seqMax := minmemOnKube(t, 1, edge)
	par, parMax := minmemOnKube(t, 4, edge)
	if seq.MinOK != 304*kmi || par.MinOK != seq.MinOK || par.MaxKO != seq.MaxKO {
		t.Errorf("--parallel 4 found %d/%d MiB, --parallel 1 %d/%d MiB; want 304 MiB OK", par.MinOK/kmi, par.MaxKO/kmi, seq.MinOK/kmi, seq.MaxKO/kmi)
	}
	if seqMax != 1 || parMax != 4 {
		t.Errorf("most Jobs at once: %d at --parallel 1, %d at --parallel 4; want 1 and 4", seqMax, parMax)
	}
	if par.Rounds == 0 || par.Rounds >= len(seq.Trials) {
		t.Errorf("--parallel 4 took %d rounds against %d trials one at a time", par.Rounds, len(seq.Trials))
	}
}
