package k8scheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// assets is where .ci/k8s/build installs; KUBEBUILDER_ASSETS overrides it.
func assets(t *testing.T) string {
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		dir = "/opt/jvmfit-k8s/bin"
	}
	for _, b := range []string{"kube-apiserver", "etcd", "kubectl"} {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			t.Fatalf("no %s in %s: run .ci/k8s/build (or .ci/install test)", b, dir)
		}
	}
	return dir
}

// TestEnvtestCreatesJob starts the built kube-apiserver with Debian's etcd
// through envtest, checks the server reports the version the build stamped,
// then creates a Job with memory and CPU limits and reads them back as the
// API server stored them (defaulted, validated, in etcd).
func TestEnvtestCreatesJob(t *testing.T) {
	env := &envtest.Environment{BinaryAssetsDirectory: assets(t)}
	start := time.Now()
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest did not stop: %v", err)
		}
	})
	t.Logf("envtest up in %v", time.Since(start).Round(time.Millisecond))

	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dc.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if v.GitVersion != "v1.35.4" {
		t.Errorf("server version %q, want v1.35.4 (the ldflags of .ci/k8s/build)", v.GitVersion)
	}

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	limits := corev1.ResourceList{
		corev1.ResourceMemory: resource.MustParse("128Mi"),
		corev1.ResourceCPU:    resource.MustParse("1"),
	}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "trial-128mi", Namespace: "default"},
		Spec: batchv1.JobSpec{
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name: "app", Image: "jvmfit-test/filecache:jdk17",
					Resources: corev1.ResourceRequirements{Limits: limits, Requests: limits},
				}},
			}},
		},
	}
	if err := c.Create(ctx, job); err != nil {
		t.Fatalf("create Job: %v", err)
	}
	var got batchv1.Job
	if err := c.Get(ctx, client.ObjectKeyFromObject(job), &got); err != nil {
		t.Fatalf("get Job: %v", err)
	}
	lim := got.Spec.Template.Spec.Containers[0].Resources.Limits
	if m := lim.Memory().Value(); m != 128<<20 {
		t.Errorf("stored memory limit %d, want %d", m, 128<<20)
	}
	if cpu := lim.Cpu().MilliValue(); cpu != 1000 {
		t.Errorf("stored CPU limit %dm, want 1000m", cpu)
	}
	// The API server defaults what the client left out: proof it is a real one.
	if got.Spec.BackoffLimit == nil || *got.Spec.BackoffLimit != 6 {
		t.Errorf("backoffLimit %v, want the server's default 6", got.Spec.BackoffLimit)
	}
	if err := c.Delete(ctx, &got); err != nil {
		t.Errorf("delete Job: %v", err)
	}
}
