package kube

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"
)

// Connect makes an API from a kubeconfig ("" = $KUBECONFIG, then
// ~/.kube/config, then the in-cluster service account) and says which
// namespace its current context names, for a --namespace left empty.
func Connect(kubeconfig string) (API, string, error) {
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
	api, err := NewAPI(rc)
	return api, ns, err
}
