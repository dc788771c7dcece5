package kube

import (
	"context"
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// trialJobs is the Job as Job builds it and as envtest's real API server
// stores it (defaulting and validation applied): a field the server
// drops or refuses fails here as one the builder forgot.
func trialJobs(t *testing.T, o JobOptions) map[string]*batchv1.Job {
	t.Helper()
	task, err := NewTask(testSpec(256*mi), testApp())
	if err != nil {
		t.Fatal(err)
	}
	c := apiServer(t)
	o.Namespace = namespace(t, c)
	built, err := Job("jvmfit-5e55104d-0001", task, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := cluster.api.CreateJob(ctx, built.DeepCopy()); err != nil {
		t.Fatalf("the API server refused the Job: %v", err)
	}
	stored, err := c.BatchV1().Jobs(o.Namespace).Get(ctx, built.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*batchv1.Job{"built": built, "stored": stored}
}

// The trial pod needs no API access: no service-account token is mounted
// into it, so an app that reads it cannot act with jvmfit's namespace
// rights.
func TestTrialPodHasNoServiceAccountToken(t *testing.T) {
	for what, j := range trialJobs(t, testOptions()) {
		if a := j.Spec.Template.Spec.AutomountServiceAccountToken; a == nil || *a {
			t.Errorf("%s Job: automountServiceAccountToken = %v, want false", what, a)
		}
	}
}

// Every container of the trial pod runs under RuntimeDefault seccomp,
// cannot gain privileges, and drops every capability; the app adds none
// back, and the agent, whose app's user is not known here, only
// SYS_PTRACE (another uid's /proc/PID/root), DAC_OVERRIDE (its 0600
// hsperfdata and attach socket) and KILL (the stop and the attach
// signal).
func TestTrialPodSecurityContext(t *testing.T) {
	for what, j := range trialJobs(t, testOptions()) {
		pod := j.Spec.Template.Spec
		if sc := pod.SecurityContext; sc == nil || sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
			t.Errorf("%s Job: pod seccompProfile %+v, want RuntimeDefault", what, sc)
		}
		want := map[string][]corev1.Capability{AppContainer: nil, AgentContainer: {"DAC_OVERRIDE", "KILL", "SYS_PTRACE"}}
		for _, c := range pod.Containers {
			checkHardened(t, what, c, want[c.Name])
		}
		if a := pod.Containers[1].SecurityContext; a != nil && (a.RunAsUser == nil || *a.RunAsUser != 0) {
			t.Errorf("%s Job: the agent's runAsUser %v: with capabilities it must say root, which alone gets them", what, a.RunAsUser)
		}
	}
}

// With the app's user given as uid:gid (user: in the descriptor), both
// containers run as it, non-root, and the agent needs no capability: the
// kernel lets a process read and signal its own uid's processes whose
// capabilities (none) are a subset of its own. The pod then meets
// Pod Security's restricted level, and so baseline.
func TestTrialPodRunsAsTheAppsUser(t *testing.T) {
	o := testOptions()
	o.User = "1000:1001"
	for what, j := range trialJobs(t, o) {
		for _, c := range j.Spec.Template.Spec.Containers {
			checkHardened(t, what, c, nil)
			sc := c.SecurityContext
			if sc == nil {
				continue
			}
			if sc.RunAsUser == nil || *sc.RunAsUser != 1000 || sc.RunAsGroup == nil || *sc.RunAsGroup != 1001 {
				t.Errorf("%s Job: %s runs as %v:%v, want 1000:1001", what, c.Name, sc.RunAsUser, sc.RunAsGroup)
			}
			if sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
				t.Errorf("%s Job: %s runAsNonRoot %v, want true", what, c.Name, sc.RunAsNonRoot)
			}
		}
	}
}

// checkHardened fails t unless c cannot gain privileges, drops ALL and
// adds back exactly add.
func checkHardened(t *testing.T, what string, c corev1.Container, add []corev1.Capability) {
	t.Helper()
	sc := c.SecurityContext
	if sc == nil {
		t.Errorf("%s Job: %s has no securityContext", what, c.Name)
		return
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("%s Job: %s allowPrivilegeEscalation %v, want false", what, c.Name, sc.AllowPrivilegeEscalation)
	}
	if sc.Privileged != nil && *sc.Privileged {
		t.Errorf("%s Job: %s is privileged", what, c.Name)
	}
	if sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("%s Job: %s drops %v, want ALL", what, c.Name, sc.Capabilities)
		return
	}
	got := slices.Clone(sc.Capabilities.Add)
	slices.Sort(got)
	if !slices.Equal(got, add) {
		t.Errorf("%s Job: %s adds %v, want %v", what, c.Name, got, add)
	}
}
