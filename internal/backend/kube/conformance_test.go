package kube

import (
	"context"
	"github.com/jvmfit/jvmfit/internal/backend/kube/kubetest"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend/backendtest"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The Kubernetes backend passes the conformance suite against envtest's
// real kube-apiserver and etcd. envtest has no kubelet, so no pod really
// runs: the test's kubelet (kubelet_test.go) makes each Job's pod and
// writes its status as a kubelet would, with the agent's result (OK), the
// app container OOMKilled (OOM), or both containers running (Long). The
// limits are the Job's as the API server holds them, and FullGCAtEnd is
// checked in the task the pod's agent reads, through the sampler target
// it would start with it.
func TestConformance(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var fate func(string, *corev1.Pod)
	var task *Task
	var limits corev1.ResourceList // the running Job's, read back from the API server
	startKubelet(t, ctx, c, ns, func(job string, p *corev1.Pod) {
		if tk, err := DecodeTask(agentEnv(p.Spec, TaskEnv)); err == nil {
			mu.Lock()
			task = &tk
			mu.Unlock()
		}
		if j, err := c.BatchV1().Jobs(ns).Get(ctx, job, metav1.GetOptions{}); err == nil {
			mu.Lock()
			limits = j.Spec.Template.Spec.Containers[0].Resources.Limits
			mu.Unlock()
		}
		mu.Lock()
		f := fate
		mu.Unlock()
		f(job, p)
	})
	r := envRunner(c, ns)
	r.Pending = 5 * time.Second
	backendtest.Run(t, backendtest.Harness{
		Backend: &Backend{run: r.Run},
		Trial: func(t *testing.T, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
			spec := testSpec(mem)
			spec.CPUs = cpus
			f := finishedWith(mustMessage(t, Message{Result: okResult(spec)}), terminated(AppContainer, "Error", 143, ""))
			switch k {
			case backendtest.OOM:
				exited := &trial.Result{Spec: spec, Verdict: trial.KO, Kind: trial.KindExited, Failed: []string{"the app exited"}}
				f = finishedWith(mustMessage(t, Message{Result: exited}), terminated(AppContainer, "OOMKilled", 137, ""))
			case backendtest.Long:
				f = func(_ string, p *corev1.Pod) {
					p.Status.Phase = corev1.PodRunning
					p.Status.ContainerStatuses = []corev1.ContainerStatus{running(AppContainer), running(AgentContainer)}
				}
			}
			mu.Lock()
			fate, task, limits = f, nil, nil
			mu.Unlock()
			return spec, testApp()
		},
		Live: func(t *testing.T) []string {
			var live []string
			jobs, _ := c.BatchV1().Jobs(ns).List(context.Background(), metav1.ListOptions{})
			for _, j := range jobs.Items {
				live = append(live, "job "+j.Name)
			}
			pods, _ := c.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
			for _, p := range pods.Items {
				live = append(live, "pod "+p.Name)
			}
			return live
		},
		// A trial whose pod ends at once can end between two polls: the
		// kubelet reads the Job back when it makes the pod.
		Limits: func(*testing.T) (int64, float64, bool) {
			mu.Lock()
			defer mu.Unlock()
			if limits == nil {
				return 0, 0, false
			}
			return limits.Memory().Value(), limits.Cpu().AsApproximateFloat64(), true
		},
		FullGC: func(t *testing.T, _ *trial.Result) bool {
			mu.Lock()
			defer mu.Unlock()
			return task != nil && task.Spec.FullGCAtEnd && podProber{}.target(&attached{pid: 1}, task.Spec).FullGCAtEnd
		},
	})
}

// agentEnv is the value of the agent container's variable name.
func agentEnv(spec corev1.PodSpec, name string) string {
	return kubetest.Env(spec, AgentContainer, name)
}
