package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/kube"
)

func init() { commands = append(commands, newAgent) }

// newAgent is the jvmfit container of a trial pod (--backend k8s, see
// docs/kubernetes.md): hidden, since only the pods jvmfit makes run it.
func newAgent() *cobra.Command {
	var msg string
	cmd := &cobra.Command{
		Use:    "agent",
		Short:  "Run one trial inside a Kubernetes trial pod (started by --backend k8s)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			task, err := kube.DecodeTask(os.Getenv(kube.TaskEnv))
			if err != nil {
				return asUsage(err)
			}
			return kube.Agent(cmd.Context(), task, cmd.OutOrStdout(), cmd.ErrOrStderr(), msg)
		},
	}
	cmd.Flags().StringVar(&msg, "termination-message", kube.TerminationPath, "where the result's summary goes (the pod's terminationMessagePath)")
	return cmd
}
