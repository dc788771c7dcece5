package kube

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// The trial pod runs someone's image next to jvmfit's agent, in a
// namespace where jvmfit may create Jobs: it gets nothing it does not use.
// No service-account token (neither container calls the API), RuntimeDefault
// seccomp, no privilege escalation, every capability dropped. What the
// agent gets back depends on whether the app's user is known here
// (docs/kubernetes.md, "What a user needs"):
//
//   - user: uid:gid in the descriptor: both containers run as it, and the
//     agent adds nothing. The kernel lets a process read /proc/PID/root,
//     smaps and environ of, and signal, a process of its own uid and gid
//     whose capabilities are a subset of its own (the app holds none), and
//     the JVM's hsperfdata file and attach socket are that user's. The pod
//     meets Pod Security's restricted level (baseline too) when uid is not 0.
//   - otherwise: the app keeps the image's user, which may be any uid, and
//     the agent runs as root with SYS_PTRACE (another uid's /proc/PID/root:
//     ptrace read access), DAC_OVERRIDE (the app user's 0600 hsperfdata and
//     attach socket) and KILL (the attach signal, the stop). Kubernetes
//     gives added capabilities to root only, so it says root outright.
//     Baseline forbids SYS_PTRACE: such a pod needs the privileged level.

// podSecurity is the pod-wide part: seccomp for every container.
func podSecurity() *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}}
}

// agentNeeds are the capabilities the agent adds back when it cannot run
// as the app's user.
var agentNeeds = []corev1.Capability{"DAC_OVERRIDE", "KILL", "SYS_PTRACE"}

// containerSecurity is one container's: as user (uid:gid as the
// descriptor gives it), with add put back after dropping ALL.
func containerSecurity(uid, gid *int64, add []corev1.Capability) *corev1.SecurityContext {
	no := false
	sc := &corev1.SecurityContext{
		AllowPrivilegeEscalation: &no,
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}, Add: add},
		RunAsUser:                uid,
		RunAsGroup:               gid,
	}
	if uid != nil && *uid != 0 {
		yes := true
		sc.RunAsNonRoot = &yes
	}
	return sc
}

// appAndAgentSecurity are the app's and the agent's security contexts
// for the descriptor's user ("" = the image's).
func appAndAgentSecurity(user string) (app, agent *corev1.SecurityContext) {
	uid, gid := numericUser(user)
	if uid != nil && gid != nil {
		return containerSecurity(uid, gid, nil), containerSecurity(uid, gid, nil)
	}
	// A uid alone: the app runs as it (its group from the image, as
	// docker run --user gives it), which the agent cannot match for sure.
	root := int64(0)
	return containerSecurity(uid, nil, nil), containerSecurity(&root, nil, agentNeeds)
}

// numericUser reads user as uid[:gid]; names (which only the image's
// /etc/passwd resolves) and "" give nil.
func numericUser(user string) (uid, gid *int64) {
	u, g, hasGroup := strings.Cut(user, ":")
	num := func(s string) *int64 {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return nil
		}
		return &v
	}
	if uid = num(u); uid == nil {
		return nil, nil
	}
	if hasGroup {
		gid = num(g)
	}
	return uid, gid
}
