package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/experiment"
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
			err := experiment.RunAgent(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), msg)
			var be *experiment.BackendError
			if errors.As(err, &be) {
				return asUsage(err)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&msg, "termination-message", experiment.AgentTerminationPath, "where the result's summary goes (the pod's terminationMessagePath)")
	return cmd
}
