package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/jvmfit/jvmfit/internal/judge"
)

// EmitKinds are the --emit forms of an answer, a change users apply
// (docs/emit.md):
//   - k8s: a strategic-merge patch of a Deployment's container;
//   - helm: a values fragment (resources, env) as charts read them;
//   - vpa: a VerticalPodAutoscaler whose bounds never go below the answer.
var EmitKinds = []string{"k8s", "helm", "vpa"}

// IsEmitKind says whether kind is one of EmitKinds.
func IsEmitKind(kind string) bool {
	for _, k := range EmitKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Emit writes a in the form kind for the Deployment and container called
// name. Every option goes in JAVA_TOOL_OPTIONS, which every JVM reads
// whatever starts it: the answer holds at its limit and CPU count, which
// the resources fix; the framework's pool knobs follow as their env.
func Emit(w io.Writer, kind string, a judge.Answer, name string) error {
	if a.MemoryBytes <= 0 || a.CPUs <= 0 {
		return fmt.Errorf("no answer to emit: it has no memory limit or CPU count")
	}
	var v any
	head := ""
	switch kind {
	case "k8s":
		head = fmt.Sprintf("# kubectl patch deployment %s --patch-file THIS_FILE (strategic merge)\n", name)
		v = deploymentPatch{Spec: patchSpec{Template: patchTemplate{Spec: podPatch{
			Containers: []containerPatch{{Name: name, Resources: resourcesOf(a), Env: envOf(a)}}}}}}
	case "helm":
		head = "# values: the chart's container resources and env (check your chart's key names)\n"
		v = helmValues{Resources: resourcesOf(a), Env: envOf(a)}
	case "vpa":
		head = fmt.Sprintf("# bounds never below the answer's %s and %s CPU\n", k8sQuantity(a.MemoryBytes), k8sCPU(a.CPUs))
		v = vpaOf(a, name)
	default:
		return fmt.Errorf("--emit %q: use %s", kind, strings.Join(EmitKinds, ", "))
	}
	var b strings.Builder
	b.WriteString(head)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type deploymentPatch struct {
	Spec patchSpec `yaml:"spec"`
}
type patchSpec struct {
	Template patchTemplate `yaml:"template"`
}
type patchTemplate struct {
	Spec podPatch `yaml:"spec"`
}
type podPatch struct {
	Containers []containerPatch `yaml:"containers"`
}
type containerPatch struct {
	Name      string    `yaml:"name"`
	Resources resources `yaml:"resources"`
	Env       []envVar  `yaml:"env"`
}

type helmValues struct {
	Resources resources `yaml:"resources"`
	Env       []envVar  `yaml:"env"`
}

// resources: the memory request equals the limit (memory cannot be taken
// back without an OOM kill), the CPU request the quota the trials ran
// under.
type resources struct {
	Requests quantities `yaml:"requests"`
	Limits   quantities `yaml:"limits"`
}
type quantities struct {
	Memory string `yaml:"memory"`
	CPU    string `yaml:"cpu"`
}
type envVar struct {
	Name  string `yaml:"name"`
	Value string `yaml:"value"`
}

func resourcesOf(a judge.Answer) resources {
	q := quantities{Memory: k8sQuantity(a.MemoryBytes), CPU: k8sCPU(a.CPUs)}
	return resources{Requests: q, Limits: q}
}

func envOf(a judge.Answer) []envVar {
	env := []envVar{{Name: "JAVA_TOOL_OPTIONS", Value: strings.Join(a.Options, " ")}}
	names := make([]string, 0, len(a.AppEnv))
	for n := range a.AppEnv {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		env = append(env, envVar{Name: n, Value: a.AppEnv[n]})
	}
	return env
}

type vpa struct {
	APIVersion string  `yaml:"apiVersion"`
	Kind       string  `yaml:"kind"`
	Metadata   vpaMeta `yaml:"metadata"`
	Spec       vpaSpec `yaml:"spec"`
}
type vpaMeta struct {
	Name string `yaml:"name"`
}
type vpaSpec struct {
	TargetRef      targetRef      `yaml:"targetRef"`
	UpdatePolicy   updatePolicy   `yaml:"updatePolicy"`
	ResourcePolicy resourcePolicy `yaml:"resourcePolicy"`
}
type targetRef struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Name       string `yaml:"name"`
}
type updatePolicy struct {
	UpdateMode string `yaml:"updateMode"`
}
type resourcePolicy struct {
	ContainerPolicies []containerPolicy `yaml:"containerPolicies"`
}
type containerPolicy struct {
	ContainerName       string     `yaml:"containerName"`
	ControlledResources []string   `yaml:"controlledResources"`
	ControlledValues    string     `yaml:"controlledValues"`
	MinAllowed          quantities `yaml:"minAllowed"`
}

// vpaOf bounds the autoscaler below by the answer: a recommendation from
// container usage alone would take a JVM's memory below what its heap and
// regions were proven to need. It sets requests at pod creation only
// ("Initial"): it evicts nothing.
func vpaOf(a judge.Answer, name string) vpa {
	return vpa{APIVersion: "autoscaling.k8s.io/v1", Kind: "VerticalPodAutoscaler", Metadata: vpaMeta{Name: name},
		Spec: vpaSpec{
			TargetRef:    targetRef{APIVersion: "apps/v1", Kind: "Deployment", Name: name},
			UpdatePolicy: updatePolicy{UpdateMode: "Initial"},
			ResourcePolicy: resourcePolicy{ContainerPolicies: []containerPolicy{{
				ContainerName: name, ControlledResources: []string{"cpu", "memory"}, ControlledValues: "RequestsAndLimits",
				MinAllowed: quantities{Memory: k8sQuantity(a.MemoryBytes), CPU: k8sCPU(a.CPUs)},
			}}},
		}}
}
