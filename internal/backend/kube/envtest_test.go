package kube

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"os/signal"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/jvmfit/jvmfit/internal/backend/kube/kubetest"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The envtest suite runs the runner against a real kube-apiserver and etcd
// (no kubelet, no controllers: kubelet_test.go plays both, writing pod
// status through the API as a kubelet does).

var cluster struct {
	once sync.Once
	api  API // jvmfit's own client, as Connect makes it
	err  error
}

// apiServer starts the one envtest cluster of this test binary (TestMain
// stops it), or fails t naming what is missing; it returns the test's
// kubelet's client.
func apiServer(t *testing.T) kubernetes.Interface {
	t.Helper()
	cfg, c := kubetest.APIServer(t)
	cluster.once.Do(func() { cluster.api, cluster.err = NewAPI(cfg) })
	if cluster.err != nil {
		t.Fatalf("envtest: %v", cluster.err)
	}
	return c
}

func TestMain(m *testing.M) {
	code := m.Run()
	kubetest.Stop()
	os.Exit(code)
}

// namespace makes a namespace of the test's own, deleted at its end.
func namespace(t *testing.T, c kubernetes.Interface) string { return kubetest.Namespace(t, c) }

func envRunner(c kubernetes.Interface, ns string) *Runner {
	r := newRunner(c)
	r.Client = cluster.api
	r.Jobs.Namespace, r.Jobs.Session = ns, NewSessionID()
	return r
}

// The API server accepts the Job as built, with the trial's limits and
// requests, and the pod made from it runs to an OK result.
func TestEnvtestJobWithTheTrialsLimits(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spec := testSpec(320 * mi)
	msg := mustMessage(t, Message{Result: okResult(spec)})
	var seen corev1.ResourceRequirements
	var share bool
	startKubelet(t, ctx, c, ns, func(job string, p *corev1.Pod) {
		j, err := c.BatchV1().Jobs(ns).Get(ctx, job, metav1.GetOptions{})
		if err != nil {
			t.Errorf("reading the Job back: %v", err)
			return
		}
		seen = j.Spec.Template.Spec.Containers[0].Resources
		share = *j.Spec.Template.Spec.ShareProcessNamespace
		finishedWith(msg, terminated(AppContainer, "Error", 143, ""))(job, p)
	})
	res, err := envRunner(c, ns).Run(ctx, spec, trial.Options{})
	if err != nil || res.Verdict != trial.OK {
		t.Fatalf("%v %v", res, err)
	}
	for what, l := range map[string]corev1.ResourceList{"limits": seen.Limits, "requests": seen.Requests} {
		if m := l[corev1.ResourceMemory]; m.Cmp(resource.MustParse("320Mi")) != 0 {
			t.Errorf("memory %s as the API server holds it: %s", what, m.String())
		}
		if cpu := l[corev1.ResourceCPU]; cpu.Cmp(resource.MustParse("1500m")) != 0 {
			t.Errorf("cpu %s as the API server holds it: %s", what, cpu.String())
		}
	}
	if !share {
		t.Error("shareProcessNamespace lost")
	}
	assertGone(t, c, ns)
}

// The pod outcomes Kubernetes alone knows, written as a kubelet would.
func TestEnvtestVerdicts(t *testing.T) {
	c := apiServer(t)
	spec := testSpec(256 * mi)
	exited := mustMessage(t, Message{Result: &trial.Result{Spec: spec, Verdict: trial.KO, Kind: trial.KindExited, Failed: []string{"the app exited"}}})
	cases := []struct {
		name string
		fate func(string, *corev1.Pod)
		want trial.Kind
	}{
		{"OOMKilled", finishedWith(exited, terminated(AppContainer, "OOMKilled", 137, "")), trial.KindOOMKilled},
		{"evicted", evictedPod, KindEvicted},
		{"unschedulable", unschedulablePod, KindUnschedulable},
		{"agent failed", finishedWith(mustMessage(t, Message{Error: "no java process appeared in the pod in 1m30s"}), running(AppContainer)), trial.KindError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ns := namespace(t, c)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			startKubelet(t, ctx, c, ns, tc.fate)
			r := envRunner(c, ns)
			r.Pending = time.Second
			res, err := r.Run(ctx, spec, trial.Options{})
			if err != nil || res.Verdict != trial.KO || res.Kind != tc.want {
				t.Fatalf("got %v, %v: want KO %s", res, err, tc.want)
			}
			assertGone(t, c, ns)
		})
	}
}

// A real SIGINT mid-trial (main turns it into cancellation, as here):
// the Job and its pod are gone from the API server when Run returns.
func TestEnvtestSIGINTDeletesTheJob(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	kctx, kcancel := context.WithCancel(context.Background())
	defer kcancel()
	k := startKubelet(t, kctx, c, ns, func(_ string, p *corev1.Pod) {
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = []corev1.ContainerStatus{running(AppContainer), running(AgentContainer)}
	})
	go func() {
		for len(k.podNames()) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // the pod is running
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	res, err := envRunner(c, ns).Run(ctx, testSpec(256*mi), trial.Options{})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("got %v, %v", res, err)
	}
	kcancel()
	assertGone(t, c, ns)
}

func TestEnvtestResume(t *testing.T) {
	c := apiServer(t)
	checkResume(t, c, cluster.api, namespace(t, c))
}

// A rerun on the same database after a SIGKILL sweeps the killed run's
// Jobs from the API server.
func TestEnvtestSweepAfterKill(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx := context.Background()
	task, _ := NewTask(testSpec(256*mi), testApp())
	o := testOptions()
	o.Namespace, o.Session, o.Process = ns, "dead0001", deadProc(t)
	for _, name := range []string{"jvmfit-dead0001-0001", "jvmfit-dead0001-0002"} {
		j, err := Job(name, task, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := cluster.api.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	n, err := Sweep(ctx, cluster.api, ns, SweepRule{Owner: o.Owner, Session: "next0001"})
	if err != nil || n != 2 {
		t.Fatalf("swept %d, %v", n, err)
	}
	assertGone(t, c, ns)
}
