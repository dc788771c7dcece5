package kube

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/trial"
)

func podWith(set func(string, *corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Minute))}}
	set("j", p)
	return p
}

// What each pod status means for the trial.
func TestJudgePod(t *testing.T) {
	now := time.Now()
	msg := "bWVzc2FnZQ=="
	cases := []struct {
		name    string
		pod     *corev1.Pod
		timeout time.Duration
		want    phase
	}{
		{"running", podWith(func(_ string, p *corev1.Pod) {
			p.Status.Phase = corev1.PodRunning
			p.Status.ContainerStatuses = []corev1.ContainerStatus{running(AppContainer), running(AgentContainer)}
		}), time.Minute, pending},
		{"agent done", podWith(finishedWith(msg, terminated(AppContainer, "Error", 143, ""))), time.Minute, finished},
		{"app OOMKilled, agent still writing", podWith(func(_ string, p *corev1.Pod) {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{terminated(AppContainer, "OOMKilled", 137, ""), running(AgentContainer)}
		}), time.Minute, pending},
		{"evicted", podWith(evictedPod), time.Minute, evicted},
		{"unschedulable, within the timeout", podWith(unschedulablePod), time.Hour, pending},
		{"unschedulable, past the timeout", podWith(func(j string, p *corev1.Pod) {
			unschedulablePod(j, p)
			p.Status.Conditions[0].LastTransitionTime = metav1.NewTime(now.Add(-2 * time.Minute))
		}), time.Minute, unscheduled},
		{"bad image name", podWith(func(_ string, p *corev1.Pod) {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: AppContainer, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "InvalidImageName"}}}}
		}), time.Hour, broken},
		{"image pull backing off, within the timeout", podWith(func(_ string, p *corev1.Pod) {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: AppContainer, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}}}
		}), time.Hour, pending},
		{"image pull backing off, past the timeout", podWith(func(_ string, p *corev1.Pod) {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: AppContainer, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}}}
		}), time.Second, broken},
		{"failed without an agent status", podWith(func(_ string, p *corev1.Pod) {
			p.Status.Phase, p.Status.Reason = corev1.PodFailed, "DeadlineExceeded"
		}), time.Hour, broken},
	}
	for _, c := range cases {
		if got := judgePod(c.pod, now, c.timeout); got.phase != c.want {
			t.Errorf("%s: phase %d (%s), want %d", c.name, got.phase, got.reason, c.want)
		}
	}
}

// Kubernetes' OOMKilled is final, whatever the agent made of its JVM
// vanishing; an app the agent stopped keeps the agent's verdict.
func TestApplyOOMKilled(t *testing.T) {
	spec := testSpec(128 * mi)
	r := &trial.Result{Verdict: trial.KO, Kind: trial.KindExited, Failed: []string{"the app exited"}}
	podState{phase: finished, app: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}.apply(r, spec)
	if r.Kind != trial.KindOOMKilled || r.Verdict != trial.KO || r.ExitCode == nil || *r.ExitCode != 137 || r.Failed[0] != "OOMKilled by Kubernetes at the 128Mi limit (exit 137)" {
		t.Errorf("got %s %s %v %v", r.Verdict, r.Kind, r.Failed, r.ExitCode)
	}
	ok := okResult(spec)
	podState{phase: finished, app: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 143}}.apply(ok, spec)
	if ok.Verdict != trial.OK || ok.Kind != "" || ok.ExitCode != nil {
		t.Errorf("an app stopped by the agent after an OK trial became %s %s exit %v", ok.Verdict, ok.Kind, ok.ExitCode)
	}
}
