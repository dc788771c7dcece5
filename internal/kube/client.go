package kube

import (
	"fmt"

	batchv1client "k8s.io/client-go/kubernetes/typed/batch/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is the part of the Kubernetes API jvmfit uses: Jobs, and their
// pods and logs. A full clientset (kubernetes.Interface, its fake
// included) is one; Connect makes one with only these two groups, which
// keeps the binary lean (the whole clientset would triple it).
type Client interface {
	BatchV1() batchv1client.BatchV1Interface
	CoreV1() corev1client.CoreV1Interface
}

type groups struct {
	batch batchv1client.BatchV1Interface
	core  corev1client.CoreV1Interface
}

func (g groups) BatchV1() batchv1client.BatchV1Interface { return g.batch }
func (g groups) CoreV1() corev1client.CoreV1Interface    { return g.core }

// Connect makes a client from a kubeconfig ("" = $KUBECONFIG, then
// ~/.kube/config, then the in-cluster service account) and says which
// namespace its current context names, for a --namespace left empty.
func Connect(kubeconfig string) (Client, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cfg := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	rc, err := cfg.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("no Kubernetes cluster to talk to (--kubeconfig, $KUBECONFIG or ~/.kube/config): %w", err)
	}
	ns, _, err := cfg.Namespace()
	if err != nil || ns == "" {
		ns = "default"
	}
	batch, err := batchv1client.NewForConfig(rc)
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig: %w", err)
	}
	core, err := corev1client.NewForConfig(rc)
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig: %w", err)
	}
	return groups{batch: batch, core: core}, ns, nil
}
