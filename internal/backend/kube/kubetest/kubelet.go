// Package kubetest is the test support of the Kubernetes backend, for its
// own tests and for the experiments' tests that drive minmem and tune
// through it: one envtest API server per test binary (a real
// kube-apiserver and etcd), a namespace per test, and a Kubelet that
// plays the Job controller and the kubelet, which envtest has not. It
// imports nothing of jvmfit's kube package, so that package's own tests
// can use it.
package kubetest

import (
	"context"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Fate sets the status of a trial Job's pod (its phase, its containers'
// states and termination messages), as a kubelet would write it.
type Fate func(job string, p *corev1.Pod)

// Kubelet stands in for the Job controller and the kubelet: for each new
// Job the selector matches it creates the pod the Job controller would
// (the Job's template, its labels), then, once the Job has lived Hold,
// sets the pod's status as its Fate says, through UpdateStatus as a
// kubelet does. A nil Fate leaves the pod Pending. It also counts, from
// what the API server lists, the most Jobs that existed at once.
type Kubelet struct {
	t       *testing.T
	client  kubernetes.Interface
	ns, sel string
	fate    Fate
	hold    time.Duration
	mu      sync.Mutex
	seen    map[string]bool
	waiting []waitingPod
	pods    []string
	jobs    []string
	maxJobs int
}

type waitingPod struct {
	job  string
	pod  *corev1.Pod
	seen time.Time
}

// StartKubelet runs a Kubelet for the Jobs in ns that selector matches
// until ctx ends.
func StartKubelet(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, selector string, fate Fate) *Kubelet {
	return StartKubeletHolding(t, ctx, c, ns, selector, 0, fate)
}

// StartKubeletHolding is StartKubelet whose pods run for hold before
// their fate is written: long enough for the Jobs a round creates side by
// side to be seen together.
func StartKubeletHolding(t *testing.T, ctx context.Context, c kubernetes.Interface, ns, selector string, hold time.Duration, fate Fate) *Kubelet {
	k := &Kubelet{t: t, client: c, ns: ns, sel: selector, fate: fate, hold: hold, seen: map[string]bool{}}
	go func() {
		for ctx.Err() == nil {
			k.step(ctx)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return k
}

func (k *Kubelet) step(ctx context.Context) {
	jobs, err := k.client.BatchV1().Jobs(k.ns).List(ctx, metav1.ListOptions{LabelSelector: k.sel})
	if err != nil {
		return
	}
	live := 0
	for _, j := range jobs.Items {
		if j.DeletionTimestamp == nil {
			live++
		}
	}
	k.mu.Lock()
	k.maxJobs = max(k.maxJobs, live)
	k.mu.Unlock()
	for _, j := range jobs.Items {
		k.mu.Lock()
		seen := k.seen[j.Name]
		k.seen[j.Name] = true
		if !seen {
			k.jobs = append(k.jobs, j.Name)
		}
		k.mu.Unlock()
		if seen || j.DeletionTimestamp != nil {
			continue
		}
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: j.Name + "-x1", Namespace: k.ns, Labels: j.Spec.Template.Labels},
			Spec:       *j.Spec.Template.Spec.DeepCopy(),
		}
		p, err := k.client.CoreV1().Pods(k.ns).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			if ctx.Err() == nil {
				k.t.Errorf("kubelet: creating the pod of %s: %v", j.Name, err)
			}
			continue
		}
		k.mu.Lock()
		k.pods = append(k.pods, p.Name)
		k.mu.Unlock()
		if k.fate != nil {
			k.waiting = append(k.waiting, waitingPod{j.Name, p, time.Now()})
		}
	}
	rest := k.waiting[:0]
	for _, w := range k.waiting {
		if time.Since(w.seen) < k.hold {
			rest = append(rest, w)
			continue
		}
		k.fate(w.job, w.pod)
		if _, err := k.client.CoreV1().Pods(k.ns).UpdateStatus(ctx, w.pod, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil && !gone(err) {
			k.t.Errorf("kubelet: status of %s: %v", w.pod.Name, err)
		}
	}
	k.waiting = rest
}

// PodNames are the pods it made, in order.
func (k *Kubelet) PodNames() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.pods...)
}

// JobNames are the Jobs it saw, in order.
func (k *Kubelet) JobNames() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.jobs...)
}

// MaxJobs is the most Jobs the API server listed at once (those being
// deleted not counted).
func (k *Kubelet) MaxJobs() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.maxJobs
}
