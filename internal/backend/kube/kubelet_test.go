package kube

import (
	"context"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// kubelet stands in for the Job controller and the kubelet, which neither
// the fake clientset nor envtest has: for each new trial Job it creates
// the pod the Job controller would (the Job's template, its labels), then
// sets the pod's status as fate says, through UpdateStatus as a kubelet
// would.
type kubelet struct {
	t      *testing.T
	client kubernetes.Interface
	ns     string
	fate   func(job string, p *corev1.Pod) // sets p.Status; nil leaves it Pending
	mu     sync.Mutex
	seen   map[string]bool
	pods   []string
}

func startKubelet(t *testing.T, ctx context.Context, c kubernetes.Interface, ns string, fate func(string, *corev1.Pod)) *kubelet {
	k := &kubelet{t: t, client: c, ns: ns, fate: fate, seen: map[string]bool{}}
	go func() {
		for ctx.Err() == nil {
			k.step(ctx)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return k
}

func (k *kubelet) step(ctx context.Context) {
	jobs, err := k.client.BatchV1().Jobs(k.ns).List(ctx, metav1.ListOptions{LabelSelector: LabelManagedBy + "=" + ManagedBy})
	if err != nil {
		return
	}
	for _, j := range jobs.Items {
		k.mu.Lock()
		seen := k.seen[j.Name]
		k.seen[j.Name] = true
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
			k.t.Errorf("kubelet: creating the pod of %s: %v", j.Name, err)
			continue
		}
		k.mu.Lock()
		k.pods = append(k.pods, p.Name)
		k.mu.Unlock()
		if k.fate == nil {
			continue
		}
		k.fate(j.Name, p)
		if _, err := k.client.CoreV1().Pods(k.ns).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
			k.t.Errorf("kubelet: status of %s: %v", p.Name, err)
		}
	}
}

func (k *kubelet) podNames() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.pods...)
}

// Pod statuses as a kubelet writes them.

func terminated(name, reason string, code int32, msg string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Image: "img", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		Reason: reason, ExitCode: code, Message: msg, StartedAt: metav1.Now(), FinishedAt: metav1.Now()}}}
}

func running(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Image: "img", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}}}
}

// finishedWith: the agent ended with message, the app as given.
func finishedWith(msg string, app corev1.ContainerStatus) func(string, *corev1.Pod) {
	return func(_ string, p *corev1.Pod) {
		p.Status.Phase = corev1.PodFailed
		p.Status.ContainerStatuses = []corev1.ContainerStatus{app, terminated(AgentContainer, "Completed", 0, msg)}
	}
}

func evictedPod(_ string, p *corev1.Pod) {
	p.Status.Phase, p.Status.Reason = corev1.PodFailed, "Evicted"
	p.Status.Message = "The node was low on resource: memory. Container app was using 300Mi, request is 256Mi."
}

func unschedulablePod(_ string, p *corev1.Pod) {
	p.Status.Phase = corev1.PodPending
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse,
		Reason: corev1.PodReasonUnschedulable, Message: "0/1 nodes are available: 1 Insufficient memory.",
		LastTransitionTime: metav1.Now()}}
}
