package kube

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/jvmfit/jvmfit/internal/cleanup"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TestSecondInterruptDeletesJobs: a second Ctrl-C makes main run
// cleanup.Now and exit at once, so Run's own deferred delete never runs;
// the backend's hook must delete the trial's Job and pods by itself, and
// be done when Now returns (main exits right after). Before, no hook was
// registered and the Job ran on in the cluster.
func TestSecondInterruptDeletesJobs(t *testing.T) {
	c := apiServer(t)
	ns := namespace(t, c)
	kctx, kcancel := context.WithCancel(context.Background())
	defer kcancel()
	k := startKubelet(t, kctx, c, ns, func(_ string, p *corev1.Pod) {
		p.Status.Phase = corev1.PodRunning
		p.Status.ContainerStatuses = []corev1.ContainerStatus{running(AppContainer), running(AgentContainer)}
	})
	// Not cancelled: the first signal's graceful path is what a second
	// Ctrl-C cuts short.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		envRunner(c, ns).Run(ctx, testSpec(256*mi), trial.Options{})
	}()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(30 * time.Second); len(k.podNames()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no pod within 30s")
		}
	}
	time.Sleep(100 * time.Millisecond) // the pod is running
	cleanup.Now()
	assertGone(t, c, ns)
}
