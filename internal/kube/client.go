package kube

import (
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// Connect makes a clientset from a kubeconfig ("" = $KUBECONFIG, then
// ~/.kube/config, then the in-cluster service account) and says which
// namespace its current context names, for a --namespace left empty.
func Connect(kubeconfig string) (kubernetes.Interface, string, error) {
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
	c, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig: %w", err)
	}
	return c, ns, nil
}
