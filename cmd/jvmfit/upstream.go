package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/upstream"
)

func init() { commands = append(commands, newUpstream) }

// newUpstream is a trial's built-in HTTP upstream (services: kind http,
// docs/services.md), run by jvmfit in the service's cgroup: hidden, as
// agent is, since jvmfit starts it; bench/sidecar-floor.sh runs it by hand.
// Its flags are upstream.Main's own, so they are passed through whole.
func newUpstream() *cobra.Command {
	return &cobra.Command{
		Use:                "upstream",
		Short:              "Serve fixed bytes on 127.0.0.1 after a latency drawn from a distribution (a trial's kind: http service)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := upstream.Main(args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
}
