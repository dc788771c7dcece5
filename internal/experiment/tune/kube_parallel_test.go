package tune

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
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func TestMain(m *testing.M) {
	code := m.Run()
	kubetest.Stop()
	os.Exit(code)
}

// simPods is the simulated app as the test's kubelet runs it: each pod's
// agent reports the verdict the simulated app gives the trial its task
// names (its candidate, its limit, its length).
func simPods(t *testing.T, a *simApp) kubetest.Fate {
	return func(_ string, p *corev1.Pod) {
		task, err := kube.DecodeTask(kubetest.Env(p.Spec, kube.AgentContainer, kube.TaskEnv))
		if err != nil {
			t.Errorf("the pod's task: %v", err)
			return
		}
		sp := task.Spec
		pt := Point{Purpose: sp.Purpose, Candidate: sp.Candidate, MemoryBytes: sp.MemoryBytes, CPUs: sp.CPUs}
		if sp.Soak || sp.Duration > 0 {
			pt.Soak = sp.Duration
		}
		extra := a.long(pt)
		if sp.Soak {
			extra += a.soakExtra
		}
		o := a.judge(pt, extra)
		if sp.Purpose == PurposeTraining {
			o.Verdict = trial.OK
		}
		r := &trial.Result{Spec: sp, Key: sp.Key(), Verdict: o.Verdict, Kind: o.Kind, StartSeconds: o.StartSeconds,
			MemoryPeakBytes: o.PeakBytes, StartedAt: time.Now(), EndedAt: time.Now()}
		msg, err := kube.EncodeMessage(kube.Message{Result: r})
		if err != nil {
			t.Error(err)
		}
		kubetest.Ended(p, kube.AgentContainer, msg)
	}
}

// tuneOnKube runs a tune at --parallel n against envtest's API server,
// through kube.Open as --backend k8s does, on the simulated footprint
// app; it returns the answer and the most Jobs the API server held at
// once, and checks that no Job or pod is left.
func tuneOnKube(t *testing.T, n int) (*Result, int) {
	kc := kubetest.Kubeconfig(t)
	_, c := kubetest.APIServer(t)
	ns := kubetest.Namespace(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	a := footprintApp()
	k := kubetest.StartKubeletHolding(t, ctx, c, ns, kube.LabelManagedBy+"="+kube.ManagedBy, 400*time.Millisecond, simPods(t, a))
	dir := t.TempDir()
	sc := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(sc, []byte("phases: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "t.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess := &experiment.Session{Store: st,
		App:  &app.App{Name: "sim", Image: "sim:17", Port: 8080, Ready: "http://127.0.0.1:${port}/", ReadyTimeout: time.Minute, SLO: "success>=0.99", Rate: 50, Scenario: sc},
		Base: trial.Spec{App: "sim.yaml", AppName: "sim", SLO: "success>=0.99", Rate: 50},
		Prepare: func(s trial.Spec) (trial.Spec, error) {
			s.Java, s.JDKVersion, s.Image, s.JVMOptions = "/opt/java/bin/java", 17, "sim:17", s.UserOptions
			return s, nil
		}}
	if _, err := sess.UseBackend(ctx, experiment.BackendConfig{Name: "k8s", Parallel: n, Kubeconfig: kc, Namespace: ns, AgentImage: "jvmfit:test"}, db); err != nil {
		t.Fatal(err)
	}
	if err := sess.Begin("tune", nil); err != nil {
		t.Fatal(err)
	}
	cfg := simConfig(a, plan.Footprint, 40)
	cfg.Parallel, cfg.Reruns, cfg.ArchiveDir = n, 2, filepath.Join(dir, "archives")
	cfg.Profile = &plan.Profile{Version: 1, LiveHeapBytes: 20 * tmib, MetaspaceUsedBytes: 30 * tmib, CodeCacheUsedBytes: 10 * tmib, PeakThreads: 30}
	r, err := Run(ctx, cfg, &SessionTrials{Session: sess, Planner: a.planner, Goal: cfg.Goal})
	if err != nil {
		t.Fatalf("--parallel %d: %v", n, err)
	}
	cancel()
	kubetest.AssertGone(t, c, ns)
	ran, _ := sess.Counts()
	if got := len(k.JobNames()); got != ran {
		t.Errorf("--parallel %d: %d Jobs for %d trials run", n, got, ran)
	}
	return r, k.MaxJobs()
}

// A tune at --parallel 4 on Kubernetes: a round's Jobs exist at once in
// the API server, none is left at the end, and the answer is the one
// --parallel 1 gives on the same simulated app.
func TestTuneParallelOnKubernetes(t *testing.T) {
	seq, seqMax := tuneOnKube(t, 1)
	par, parMax := tuneOnKube(t, 4)
	if seq.Verdict != Proven || par.Verdict != seq.Verdict || par.MemoryBytes != seq.MemoryBytes || par.Candidate != seq.Candidate {
		t.Errorf("--parallel 4: %s %s at %d MiB; --parallel 1: %s %s at %d MiB\n%s", par.Verdict, par.Candidate, par.MemoryBytes/tmib,
			seq.Verdict, seq.Candidate, seq.MemoryBytes/tmib, searchLog(par))
	}
	if seqMax != 1 || parMax != 4 {
		t.Errorf("most Jobs at once: %d at --parallel 1, %d at --parallel 4; want 1 and 4", seqMax, parMax)
	}
	if len(par.Reruns) != 2 || par.RerunsOK() != 2 {
		t.Errorf("--parallel 4: %d reruns, %d OK; want 2 and 2", len(par.Reruns), par.RerunsOK())
	}
}
