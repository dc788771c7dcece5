package experiment_test

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
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
	if _, err := s.UseBackend(ctx, experiment.BackendConfig{Name: "k8s", Parallel: n, Kubeconfig: kc, Namespace: ns, AgentImage: "jvmfit:test"}, db); err != nil {
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

// A real SIGINT (main turns it into cancellation, as signal.NotifyContext
// does here) mid-round of a minmem at --parallel 4 on Kubernetes: every
// Job and pod of the round is gone from the API server when minmem
// returns, the trials that ended are stored, and the same minmem on the
// same database takes them from the store and runs a Job for each of the
// others only.
func TestMinMemParallelSIGINTOnKubernetes(t *testing.T) {
	const edge = 300 * kmi
	kc := kubetest.Kubeconfig(t)
	_, c := kubetest.APIServer(t)
	ns := kubetest.Namespace(t, c)
	db := filepath.Join(t.TempDir(), "e.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	session := func(ctx context.Context) *experiment.Session {
		s := &experiment.Session{App: kubeApp(t), Store: st,
			Base: trial.Spec{App: "edge.yaml", AppName: "edge", JVM: "default", SLO: "success>=0.99", Rate: 50},
			Prepare: func(sp trial.Spec) (trial.Spec, error) {
				sp.Java, sp.JDKVersion, sp.Image = "/opt/java/bin/java", 17, "edge:17"
				return sp, nil
			}}
		if _, err := s.UseBackend(ctx, experiment.BackendConfig{Name: "k8s", Parallel: 4, Kubeconfig: kc, Namespace: ns, AgentImage: "jvmfit:test"}, db); err != nil {
			t.Fatal(err)
		}
		if err := s.Begin(store.KindMinMem, nil); err != nil {
			t.Fatal(err)
		}
		return s
	}
	p := experiment.MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"}, Search: experiment.Search{Min: 64 * kmi, Max: 1024 * kmi, Step: 8 * kmi}}

	// The first round's lower two limits end, the upper two run on.
	kctx, kcancel := context.WithCancel(context.Background())
	ended := edgeApp(t, edge)
	k := kubetest.StartKubelet(t, kctx, c, ns, kube.LabelManagedBy+"="+kube.ManagedBy, func(job string, pod *corev1.Pod) {
		task, _ := kube.DecodeTask(kubetest.Env(pod.Spec, kube.AgentContainer, kube.TaskEnv))
		if task.Spec.MemoryBytes < 500*kmi {
			ended(job, pod)
			return
		}
		pod.Status.Phase = corev1.PodRunning
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	first := session(ctx)
	go func() {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if rs, _ := st.Trials(store.Filter{ExperimentID: first.ID, Light: true}); len(rs) == 2 && k.MaxJobs() == 4 {
				break
			}
		}
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	if _, err := p.Run(ctx, first); !errors.Is(err, context.Canceled) {
		t.Fatalf("after SIGINT: %v", err)
	}
	kcancel()
	kubetest.AssertGone(t, c, ns)
	kept, err := st.Trials(store.Filter{ExperimentID: first.ID, Light: true})
	if err != nil || len(kept) != 2 {
		t.Fatalf("%d trials stored (%v); want the 2 that ended", len(kept), err)
	}

	rctx, rcancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer rcancel()
	rk := kubetest.StartKubelet(t, rctx, c, ns, kube.LabelManagedBy+"="+kube.ManagedBy, ended)
	again := session(rctx)
	res, err := p.Run(rctx, again)
	if err != nil || res[0].Outcome.MinOK != 304*kmi {
		t.Fatalf("rerun: %v %v", res, err)
	}
	ran, reused := again.Counts()
	if reused != 2 || len(rk.JobNames()) != ran {
		t.Errorf("rerun: %d reused (want the 2 stored), %d Jobs for %d trials run", reused, len(rk.JobNames()), ran)
	}
	rcancel()
	kubetest.AssertGone(t, c, ns)
}
