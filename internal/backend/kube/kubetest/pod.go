package kubetest

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Env is the value of the variable name in the container of a pod spec,
// "" when it has none: the task a trial pod's agent reads.
func Env(spec corev1.PodSpec, container, name string) string {
	for _, c := range spec.Containers {
		if c.Name != container {
			continue
		}
		for _, e := range c.Env {
			if e.Name == name {
				return e.Value
			}
		}
	}
	return ""
}

// Ended marks p ended as a kubelet writes it: every container terminated,
// the agent with its termination message, the others stopped (143).
func Ended(p *corev1.Pod, agent, msg string) {
	p.Status.Phase = corev1.PodFailed
	p.Status.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		st := &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 143, StartedAt: metav1.Now(), FinishedAt: metav1.Now()}
		if c.Name == agent {
			st.Reason, st.ExitCode, st.Message = "Completed", 0, msg
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, State: corev1.ContainerState{Terminated: st}})
	}
}
