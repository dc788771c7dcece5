package kube

import (
	"fmt"
	"sort"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// Container names in a trial pod.
const (
	AppContainer   = "app"
	AgentContainer = "jvmfit"
)

// JobOptions are what every Job of a session shares.
type JobOptions struct {
	Namespace  string
	Image      string // the app's image
	AgentImage string // an image holding the jvmfit binary at AgentCommand[0]
	// AgentCommand runs the agent (default: jvmfit agent).
	AgentCommand []string
	Owner        string // owner.ForDB of the results database
	Session      string // NewSessionID
	Process      string // this jvmfit process, owner.Proc's String: when the run is gone
	// User is the app's user as the descriptor gives it (user:, "" = the
	// image's own): uid:gid lets both containers run as it (podsecurity.go).
	User string
	// AgentMemory and AgentCPUs are the agent container's own requests and
	// limits: the load generator must not eat into the app's.
	AgentMemory int64
	AgentCPUs   float64
}

func (o JobOptions) withDefaults() JobOptions {
	if len(o.AgentCommand) == 0 {
		o.AgentCommand = []string{"jvmfit", "agent"}
	}
	if o.AgentMemory == 0 {
		o.AgentMemory = 256 << 20
	}
	if o.AgentCPUs == 0 {
		o.AgentCPUs = 1
	}
	return o
}

// Job is the manifest of one trial: the app's image with the trial's
// limits (requests equal to limits, so the pod is Guaranteed and is the
// last to be evicted) and the agent beside it, sharing the pod's process
// namespace so that the agent reads the JVM's /proc, cgroup and hsperfdata.
// The pod never restarts and the Job never retries: a failure is a
// verdict, not something to hide by a second try.
func Job(name string, task Task, o JobOptions) (*batchv1.Job, error) {
	o = o.withDefaults()
	if o.Image == "" {
		return nil, fmt.Errorf("the Kubernetes backend needs the app's image (image: in the descriptor, or --image)")
	}
	if o.AgentImage == "" {
		return nil, fmt.Errorf("the Kubernetes backend needs the agent's image (--agent-image: an image with the jvmfit binary)")
	}
	env, err := task.Encode()
	if err != nil {
		return nil, err
	}
	lbl := sessionLabels(o.Owner, o.Session)
	lbl[LabelTrial] = name
	ann := map[string]string{AnnotationProcess: o.Process}
	spec := task.Spec
	never, zero := corev1.RestartPolicyNever, int32(0)
	share := true
	deadline := int64(activeDeadline(task).Seconds())
	ttl := int32(600) // a safety net: jvmfit deletes its Jobs itself
	grace := int64(10)
	appSec, agentSec := appAndAgentSecurity(o.User)
	noToken := false
	app := corev1.Container{
		Name:            AppContainer,
		Image:           o.Image,
		Args:            task.App.Args,
		Env:             appEnv(spec, task.App.Env),
		Resources:       resources(spec.MemoryBytes, spec.CPUs, spec.NoLimits),
		Ports:           []corev1.ContainerPort{{Name: "http", ContainerPort: int32(task.App.Port)}},
		ImagePullPolicy: corev1.PullIfNotPresent,
		SecurityContext: appSec,
	}
	agent := corev1.Container{
		Name:                     AgentContainer,
		Image:                    o.AgentImage,
		Command:                  o.AgentCommand,
		Env:                      []corev1.EnvVar{{Name: TaskEnv, Value: env}},
		Resources:                resources(o.AgentMemory, o.AgentCPUs, false),
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
		// Reading another container's /proc/PID/root (hsperfdata, its
		// cgroup mount) and attaching for NMT: as the app's user, or with
		// the capabilities podsecurity.go says.
		SecurityContext: agentSec,
		// The agent writes its scratch files (the scenario, the result)
		// under /tmp, which an image FROM scratch with only the jvmfit
		// binary lacks: every trial failed with "stat /tmp" on the e2e
		// cluster until the pod brought its own.
		VolumeMounts: []corev1.VolumeMount{{Name: "agent-tmp", MountPath: "/tmp"}},
	}
	return &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: o.Namespace, Labels: lbl, Annotations: map[string]string{"jvmfit/key": spec.Key(), AnnotationProcess: o.Process}},
		Spec: batchv1.JobSpec{
			BackoffLimit:            &zero,
			ActiveDeadlineSeconds:   &deadline,
			TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: lbl, Annotations: ann},
				Spec: corev1.PodSpec{
					RestartPolicy:                 never,
					ShareProcessNamespace:         &share,
					TerminationGracePeriodSeconds: &grace,
					// Neither container calls the API.
					AutomountServiceAccountToken: &noToken,
					SecurityContext:              podSecurity(),
					Containers:                   []corev1.Container{app, agent},
					Volumes:                      []corev1.Volume{{Name: "agent-tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
				},
			},
		},
	}, nil
}

// resources are requests equal to limits; none without limits. A cpuset
// has no Kubernetes form (the static CPU manager policy pins Guaranteed
// pods with whole CPUs).
func resources(mem int64, cpus float64, none bool) corev1.ResourceRequirements {
	if none {
		return corev1.ResourceRequirements{}
	}
	l := corev1.ResourceList{}
	if mem > 0 {
		l[corev1.ResourceMemory] = *resource.NewQuantity(mem, resource.BinarySI)
	}
	if cpus > 0 {
		l[corev1.ResourceCPU] = *resource.NewMilliQuantity(int64(cpus*1000+0.5), resource.DecimalSI)
	}
	return corev1.ResourceRequirements{Limits: l, Requests: l.DeepCopy()}
}

// appEnv hands the JVM its options through JAVA_TOOL_OPTIONS, which any
// entrypoint honours (how users apply them), and the mode's variables
// (MALLOC_ARENA_MAX) as they are, sorted for a stable manifest.
func appEnv(spec trial.Spec, own map[string]string) []corev1.EnvVar {
	var env []corev1.EnvVar
	for _, k := range sortedKeys(own) {
		if _, mode := spec.JVMEnv[k]; !mode {
			env = append(env, corev1.EnvVar{Name: k, Value: own[k]})
		}
	}
	if opts := append(append([]string{}, spec.JVMOptions...), spec.UserOptions...); len(opts) > 0 {
		env = append(env, corev1.EnvVar{Name: "JAVA_TOOL_OPTIONS", Value: strings.Join(opts, " ")})
	}
	for _, k := range sortedKeys(spec.JVMEnv) {
		if _, set := own[k]; !set { // the app's environment wins, as jvmfit exec adds them
			env = append(env, corev1.EnvVar{Name: k, Value: spec.JVMEnv[k]})
		}
	}
	return env
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// activeDeadline bounds the Job by what the trial can take: readiness,
// the load, and a margin for pulling images and stopping. jvmfit's own
// watch gives up on an unschedulable pod long before.
func activeDeadline(t Task) time.Duration {
	ready := t.App.ReadyTimeout
	if ready <= 0 {
		ready = 90 * time.Second
	}
	d := ready + t.Spec.Warmup + t.Spec.Duration + 30*time.Minute
	if t.Spec.Soak {
		d += 30 * time.Minute
	}
	return d.Round(time.Second)
}
