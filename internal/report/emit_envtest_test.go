package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// The --emit forms are checked by the real kube-apiserver envtest starts
// (the one the Kubernetes backend's tests use), with the VPA CRD of
// testdata/crd installed: each is sent as a server-side dry run with
// strict field validation, so a field the API does not know, a wrong
// container name or a bad quantity fails.

var cluster struct {
	once sync.Once
	env  *envtest.Environment
	kube kubernetes.Interface
	dyn  dynamic.Interface
	err  error
}

func apiServer(t *testing.T) (kubernetes.Interface, dynamic.Interface) {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = "/opt/jvmfit-k8s/bin" // where .ci/install test puts them
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			prereq.Fail(t, "kube-apiserver/etcd ("+filepath.Join(assets, bin)+")", "run bash .ci/install test")
		}
	}
	cluster.once.Do(func() {
		env := &envtest.Environment{BinaryAssetsDirectory: assets, CRDDirectoryPaths: []string{"testdata/crd"}, ErrorIfCRDPathMissing: true}
		cfg, err := env.Start()
		if err != nil {
			cluster.err = err
			return
		}
		cluster.env = env
		if cluster.kube, cluster.err = kubernetes.NewForConfig(cfg); cluster.err == nil {
			cluster.dyn, cluster.err = dynamic.NewForConfig(cfg)
		}
	})
	if cluster.err != nil {
		t.Fatalf("envtest: %v", cluster.err)
	}
	return cluster.kube, cluster.dyn
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cluster.env != nil {
		cluster.env.Stop()
	}
	os.Exit(code)
}

var emitAnswer = judge.Answer{MemoryBytes: 320 << 20, CPUs: 1.5,
	Options: []string{"-Xmx180m", "-XX:MaxMetaspaceSize=48m", "-Dquarkus.thread-pool.max-threads=4"},
	AppEnv:  map[string]string{"QUARKUS_THREAD_POOL_MAX_THREADS": "4"}}

func emitted(t *testing.T, kind, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Emit(&b, kind, emitAnswer, name); err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(b.Bytes())
	if err != nil {
		t.Fatalf("--emit %s is not YAML: %v\n%s", kind, err, b.String())
	}
	return j
}

var dryRun = metav1.PatchOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"}

func testNamespace(t *testing.T, c kubernetes.Interface) string {
	t.Helper()
	name := "emit-" + strings.ToLower(strings.ReplaceAll(t.Name(), "_", "-"))
	name = name[:min(len(name), 60)]
	if _, err := c.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}

func deployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "example.test/" + name + ":1",
					Env: []corev1.EnvVar{{Name: "KEEP", Value: "me"}}}}}}}}
}

// checkContainer: the container as the API server returns it holds the
// answer's resources and env.
func checkContainer(t *testing.T, c corev1.Container) {
	t.Helper()
	for what, l := range map[string]corev1.ResourceList{"limits": c.Resources.Limits, "requests": c.Resources.Requests} {
		if m := l[corev1.ResourceMemory]; m.Cmp(resource.MustParse("320Mi")) != 0 {
			t.Errorf("memory %s: %s", what, m.String())
		}
		if cpu := l[corev1.ResourceCPU]; cpu.Cmp(resource.MustParse("1500m")) != 0 {
			t.Errorf("cpu %s: %s", what, cpu.String())
		}
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env["JAVA_TOOL_OPTIONS"] != strings.Join(emitAnswer.Options, " ") || env["QUARKUS_THREAD_POOL_MAX_THREADS"] != "4" {
		t.Errorf("env as the API server holds it: %v", env)
	}
}

// --emit k8s is a strategic-merge patch the API server applies to the
// Deployment's container: the resources and env land, the image and the
// container's other env stay; a patch naming no container of the
// Deployment is refused (it would add a container without an image).
func TestEmitK8sPatchDryRun(t *testing.T) {
	c, _ := apiServer(t)
	ns := testNamespace(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.AppsV1().Deployments(ns).Create(ctx, deployment("orders"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	d, err := c.AppsV1().Deployments(ns).Patch(ctx, "orders", types.StrategicMergePatchType, emitted(t, "k8s", "orders"), dryRun)
	if err != nil {
		t.Fatalf("the API server refused --emit k8s: %v", err)
	}
	if n := len(d.Spec.Template.Spec.Containers); n != 1 {
		t.Fatalf("%d containers after the patch, want the one patched", n)
	}
	ct := d.Spec.Template.Spec.Containers[0]
	checkContainer(t, ct)
	kept := false
	for _, e := range ct.Env {
		kept = kept || e.Name == "KEEP" && e.Value == "me"
	}
	if ct.Image != "example.test/orders:1" || !kept || len(ct.Env) != 3 {
		t.Errorf("the patch replaced what it should merge: image %q env %v", ct.Image, ct.Env)
	}
	stored, _ := c.AppsV1().Deployments(ns).Get(ctx, "orders", metav1.GetOptions{})
	if len(stored.Spec.Template.Spec.Containers[0].Env) != 1 {
		t.Error("the dry run changed the stored Deployment")
	}
	if _, err := c.AppsV1().Deployments(ns).Patch(ctx, "orders", types.StrategicMergePatchType, emitted(t, "k8s", "billing"), dryRun); err == nil {
		t.Error("a patch for a container the Deployment lacks was accepted: the dry run checks nothing")
	}
}

// --emit helm's values, put where a chart's template puts them (the
// container's resources and env, as `helm create`'s chart does with
// toYaml), make a Deployment the API server accepts.
func TestEmitHelmValuesDryRun(t *testing.T) {
	c, dyn := apiServer(t)
	ns := testNamespace(t, c)
	var values map[string]any
	if err := json.Unmarshal(emitted(t, "helm", "orders"), &values); err != nil {
		t.Fatal(err)
	}
	if len(values) != 2 || values["resources"] == nil || values["env"] == nil {
		t.Fatalf("values %v: want resources and env", values)
	}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "orders"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "orders"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "orders"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "orders", "image": "example.test/orders:1",
					"resources": values["resources"], "env": values["env"]}}}}}}
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	u, err := dyn.Resource(gvr).Namespace(ns).Create(context.Background(), &unstructured.Unstructured{Object: obj},
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
	if err != nil {
		t.Fatalf("the API server refused a Deployment from --emit helm's values: %v", err)
	}
	var d appsv1.Deployment
	b, _ := json.Marshal(u.Object)
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	checkContainer(t, d.Spec.Template.Spec.Containers[0])
}

// --emit vpa is a VerticalPodAutoscaler the API server (with the CRD)
// accepts, bounded below by the answer; the CRD's schema is enforced (a
// misspelled bound is refused), so the acceptance means something.
func TestEmitVPADryRun(t *testing.T) {
	c, dyn := apiServer(t)
	ns := testNamespace(t, c)
	gvr := schema.GroupVersionResource{Group: "autoscaling.k8s.io", Version: "v1", Resource: "verticalpodautoscalers"}
	create := func(j []byte) (*unstructured.Unstructured, error) {
		var obj map[string]any
		if err := json.Unmarshal(j, &obj); err != nil {
			t.Fatal(err)
		}
		var u *unstructured.Unstructured
		var err error
		// The CRD's resource is served a moment after it is established.
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			u, err = dyn.Resource(gvr).Namespace(ns).Create(context.Background(), &unstructured.Unstructured{Object: obj},
				metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
			if err == nil || !strings.Contains(err.Error(), "could not find the requested resource") || time.Now().After(end) {
				return u, err
			}
		}
	}
	u, err := create(emitted(t, "vpa", "orders"))
	if err != nil {
		t.Fatalf("the API server refused --emit vpa: %v", err)
	}
	pol, _, _ := unstructured.NestedSlice(u.Object, "spec", "resourcePolicy", "containerPolicies")
	if len(pol) != 1 {
		t.Fatalf("container policies %v", pol)
	}
	p := pol[0].(map[string]any)
	low := p["minAllowed"].(map[string]any)
	mem, cpu := resource.MustParse(low["memory"].(string)), resource.MustParse(low["cpu"].(string))
	if p["containerName"] != "orders" || mem.Cmp(resource.MustParse("320Mi")) != 0 || cpu.Cmp(resource.MustParse("1500m")) != 0 {
		t.Errorf("the bounds as the API server holds them: %v", p)
	}
	if ref, _, _ := unstructured.NestedString(u.Object, "spec", "targetRef", "name"); ref != "orders" {
		t.Errorf("targetRef %q", ref)
	}
	bad := bytes.Replace(emitted(t, "vpa", "orders"), []byte(`"minAllowed"`), []byte(`"minAlowed"`), 1)
	if _, err := create(bad); err == nil {
		t.Error("a VPA with a misspelled field was accepted: the CRD's schema is not enforced")
	}
}
