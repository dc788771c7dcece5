package kube

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/jvmfit/jvmfit/internal/backend/kube/kubetest"
)

// startKubelet plays the Job controller and the kubelet for jvmfit's
// trial Jobs in ns (kubetest.Kubelet), with the pods' fate.
func startKubelet(t *testing.T, ctx context.Context, c kubernetes.Interface, ns string, fate func(string, *corev1.Pod)) *kubelet {
	return &kubelet{kubetest.StartKubelet(t, ctx, c, ns, managedSelector(), fate)}
}

type kubelet struct{ *kubetest.Kubelet }

func (k *kubelet) podNames() []string { return k.PodNames() }

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
