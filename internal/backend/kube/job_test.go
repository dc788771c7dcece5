package kube

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/jvmfit/jvmfit/internal/app"
)

var update = flag.Bool("update", false, "rewrite the golden manifests in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the manifest built now (go test -update rewrites it after a deliberate change):\n%s", path, got)
	}
}

func TestJobManifestIsGolden(t *testing.T) {
	task, err := NewTask(testSpec(256*mi), testApp())
	if err != nil {
		t.Fatal(err)
	}
	job, err := Job("jvmfit-5e55104d-0001", task, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Manifest(job)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "job.yaml", b)
}

// The app container gets the trial's limits as limits and requests (a
// Guaranteed pod), the JVM options through JAVA_TOOL_OPTIONS; the agent
// its own; the pod shares its process namespace; every object is labelled.
func TestJobCarriesTheTrial(t *testing.T) {
	spec := testSpec(320 * mi)
	spec.CPUs = 0.5
	task, _ := NewTask(spec, testApp())
	job, err := Job("jvmfit-5e55104d-0007", task, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	pod := job.Spec.Template.Spec
	if pod.ShareProcessNamespace == nil || !*pod.ShareProcessNamespace {
		t.Error("the pod must share its process namespace: the agent reads the JVM's /proc")
	}
	if pod.RestartPolicy != corev1.RestartPolicyNever || *job.Spec.BackoffLimit != 0 {
		t.Error("a trial never restarts nor retries")
	}
	if len(pod.Containers) != 2 || pod.Containers[0].Name != AppContainer || pod.Containers[1].Name != AgentContainer {
		t.Fatalf("containers %v: want app and jvmfit", pod.Containers)
	}
	ac := pod.Containers[0]
	if ac.Image != "filecache:17" {
		t.Errorf("app image %q", ac.Image)
	}
	for what, l := range map[string]corev1.ResourceList{"limits": ac.Resources.Limits, "requests": ac.Resources.Requests} {
		if m := l[corev1.ResourceMemory]; m.Cmp(resource.MustParse("320Mi")) != 0 {
			t.Errorf("app memory %s = %s, want 320Mi", what, m.String())
		}
		if c := l[corev1.ResourceCPU]; c.Cmp(resource.MustParse("500m")) != 0 {
			t.Errorf("app cpu %s = %s, want 500m", what, c.String())
		}
	}
	env := map[string]string{}
	for _, e := range ac.Env {
		env[e.Name] = e.Value
	}
	if env["JAVA_TOOL_OPTIONS"] != "-Xmx96m -XX:MaxMetaspaceSize=64m" || env["MALLOC_ARENA_MAX"] != "2" || env["TZ"] != "UTC" {
		t.Errorf("app env %v", env)
	}
	if len(ac.Args) != 1 || ac.Args[0] != "--server.port=8080" {
		t.Errorf("app args %v: want the descriptor's, ${port} as the pod's port", ac.Args)
	}
	agent := pod.Containers[1]
	got, err := DecodeTask(agent.Env[0].Value)
	if agent.Env[0].Name != TaskEnv || err != nil || got.Spec.Key() != spec.Key() || got.App.Port != DefaultPort {
		t.Errorf("agent task: %v %v", agent.Env, err)
	}
	if got.App.Scenario == "" {
		t.Error("the scenario travels inline to the agent")
	}
	if m := agent.Resources.Limits[corev1.ResourceMemory]; m.Value() != 256*mi {
		t.Errorf("agent memory limit %s", m.String())
	}
	for _, l := range []map[string]string{job.Labels, job.Spec.Template.Labels} {
		if l[LabelManagedBy] != "jvmfit" || l[LabelSession] != "5e55104d" || l[LabelOwner] != "0wner0wner00" || l[LabelTrial] != "jvmfit-5e55104d-0007" {
			t.Errorf("labels %v", l)
		}
	}
}

func TestJobWithoutLimitsHasNoResources(t *testing.T) {
	spec := testSpec(0)
	spec.NoLimits = true
	task, _ := NewTask(spec, testApp())
	job, _ := Job("j", task, testOptions())
	if r := job.Spec.Template.Spec.Containers[0].Resources; len(r.Limits)+len(r.Requests) != 0 {
		t.Errorf("no-limits trial has resources %v", r)
	}
}

func TestJobNeedsImagesAndNoServices(t *testing.T) {
	task, _ := NewTask(testSpec(256*mi), testApp())
	o := testOptions()
	o.Image = ""
	if _, err := Job("j", task, o); err == nil {
		t.Error("a Job without the app's image was built")
	}
	a := testApp()
	a.Services = append(a.Services, app.Service{Name: "db", Kind: "postgres"})
	if _, err := NewTask(testSpec(256*mi), a); err == nil {
		t.Error("an app with services was accepted")
	}
}
