package kubetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// Assets is where .ci/install test puts kube-apiserver, etcd, kubectl
// (KUBEBUILDER_ASSETS overrides it).
const Assets = "/opt/jvmfit-k8s/bin"

var cluster struct {
	once   sync.Once
	env    *envtest.Environment
	cfg    *rest.Config
	client kubernetes.Interface
	err    error
}

// APIServer starts the one envtest cluster of this test binary (Stop, in
// TestMain, stops it), or fails t naming what is missing. It returns the
// config to reach it and a clientset for the test's own calls.
func APIServer(t *testing.T) (*rest.Config, kubernetes.Interface) {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = Assets
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			prereq.Fail(t, "kube-apiserver/etcd ("+filepath.Join(assets, bin)+")", "run bash .ci/install test")
		}
	}
	cluster.once.Do(func() {
		env := &envtest.Environment{BinaryAssetsDirectory: assets}
		cfg, err := env.Start()
		if err != nil {
			cluster.err = err
			return
		}
		cluster.env, cluster.cfg = env, cfg
		cluster.client, cluster.err = kubernetes.NewForConfig(cfg)
	})
	if cluster.err != nil {
		t.Fatalf("envtest: %v", cluster.err)
	}
	return cluster.cfg, cluster.client
}

// Stop stops the cluster APIServer started, if it did.
func Stop() {
	if cluster.env != nil {
		cluster.env.Stop()
	}
}

// Namespace makes a namespace of the test's own, deleted at its end.
func Namespace(t *testing.T, c kubernetes.Interface) string {
	t.Helper()
	b := make([]byte, 5)
	rand.Read(b)
	name := "t-" + hex.EncodeToString(b)
	ctx := context.Background()
	if _, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) })
	return name
}

// AssertGone fails t when any Job or pod is left in ns.
func AssertGone(t *testing.T, c kubernetes.Interface, ns string) {
	t.Helper()
	ctx := context.Background()
	jobs, err := c.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs.Items)+len(pods.Items) != 0 {
		t.Errorf("left behind: %d Jobs, %d pods", len(jobs.Items), len(pods.Items))
	}
}

// gone: the pod was deleted before its status was written (a trial
// stopped under it).
func gone(err error) bool { return apierrors.IsNotFound(err) }

// Kubeconfig writes a kubeconfig for the cluster APIServer started (an
// admin user's) into the test's temporary directory and returns its path:
// what --kubeconfig gives jvmfit, so that a test drives the backend as a
// command does (kube.Open, the sweep, the owner).
func Kubeconfig(t *testing.T) string {
	t.Helper()
	APIServer(t)
	u, err := cluster.env.AddUser(envtest.User{Name: "jvmfit-test", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := u.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
