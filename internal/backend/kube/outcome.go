package kube

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// KO kinds only Kubernetes gives. They are trial.Kind values like the
// others: stored, reported and compared as strings.
const (
	// KindEvicted: the kubelet evicted the pod (node memory pressure, or
	// ephemeral storage the app wrote), not the app's own OOM kill.
	KindEvicted trial.Kind = "evicted"
	// KindUnschedulable: no node could take the pod's requests in time;
	// the trial never ran.
	KindUnschedulable trial.Kind = "unschedulable"
)

// phase is where a trial pod stands, read from its status.
type phase int

const (
	pending     phase = iota // not finished: keep watching
	finished                 // the agent ended: read its message
	evicted                  // the kubelet evicted the pod
	unscheduled              // unschedulable beyond the timeout
	broken                   // the pod cannot run (bad image, bad spec): jvmfit's or the user's error
)

// podState is what judgePod read from a pod.
type podState struct {
	phase  phase
	reason string                           // plain words for evicted, unscheduled, broken
	agent  *corev1.ContainerStateTerminated // the agent's end, when finished
	app    *corev1.ContainerStateTerminated // the app's end, if it ended
}

// Waiting reasons after which a container never starts.
var fatalWaiting = map[string]bool{
	"InvalidImageName": true, "CreateContainerConfigError": true, "CreateContainerError": true, "ErrImageNeverPull": true,
}

// Waiting reasons that may clear (a registry hiccup), fatal past the
// timeout.
var slowWaiting = map[string]bool{"ErrImagePull": true, "ImagePullBackOff": true}

// judgePod reads a trial pod's status at now. An unschedulable pod or an
// image that cannot be pulled is given timeout from the pod's creation.
func judgePod(p *corev1.Pod, now time.Time, timeout time.Duration) podState {
	st := podState{phase: pending}
	if p.Status.Reason == "Evicted" {
		return podState{phase: evicted, reason: "evicted by the kubelet: " + p.Status.Message}
	}
	for i := range p.Status.ContainerStatuses {
		cs := &p.Status.ContainerStatuses[i]
		switch cs.Name {
		case AppContainer:
			st.app = cs.State.Terminated
		case AgentContainer:
			st.agent = cs.State.Terminated
		}
		if w := cs.State.Waiting; w != nil {
			if fatalWaiting[w.Reason] || (slowWaiting[w.Reason] && now.Sub(p.CreationTimestamp.Time) > timeout) {
				return podState{phase: broken, reason: fmt.Sprintf("container %s cannot start: %s: %s", cs.Name, w.Reason, w.Message)}
			}
		}
	}
	if st.agent != nil {
		st.phase = finished
		return st
	}
	if p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
		// Ended without an agent status: the node lost it or the Job's
		// deadline struck.
		return podState{phase: broken, reason: fmt.Sprintf("the pod ended (%s %s: %s) before the agent reported", p.Status.Phase, p.Status.Reason, p.Status.Message)}
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
			since := c.LastTransitionTime.Time // unschedulable since then
			if since.IsZero() {
				since = p.CreationTimestamp.Time
			}
			if now.Sub(since) > timeout {
				return podState{phase: unscheduled, reason: "unschedulable for " + timeout.String() + ": " + c.Message}
			}
		}
	}
	return st
}

// apply makes Kubernetes' word final on what it alone knows: the kernel's
// OOM kill of the app container (the agent saw only its JVM vanish) and
// the app's exit code.
func (st podState) apply(r *trial.Result, spec trial.Spec) {
	if st.app == nil {
		return
	}
	code := int(st.app.ExitCode)
	if r.Verdict == trial.KO && (r.ExitCode == nil || *r.ExitCode < 0) {
		r.ExitCode = &code // the agent sees the JVM vanish, not its status
	}
	if st.app.Reason == "OOMKilled" {
		r.Verdict, r.Kind, r.ExitCode = trial.KO, trial.KindOOMKilled, &code
		r.ExitSignal = "SIGKILL"
		r.Failed = []string{fmt.Sprintf("OOMKilled by Kubernetes at the %s limit (exit %d)", size.Format(spec.MemoryBytes), code)}
	}
}

// koResult is the result of a trial that Kubernetes ended before the agent
// could judge it.
func koResult(spec trial.Spec, kind trial.Kind, reason string, started time.Time) *trial.Result {
	return &trial.Result{Spec: spec, Key: spec.Key(), StartedAt: started, EndedAt: time.Now(),
		Verdict: trial.KO, Kind: kind, Failed: []string{reason}}
}
