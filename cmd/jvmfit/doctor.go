package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/doctor"
)

func init() { commands = append(commands, newDoctorCmd) }

func newDoctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Where trials would run here: cgroup version, place, controllers, swap, PSI, engines' cgroup drivers, and whether this kind of host is tested",
		Long: `Say, changing nothing, where jvmfit would make its trial cgroups on this
host and with what (docs/sandbox.md, "jvmfit doctor"): the cgroup version,
the place chosen, the controllers the trials get, whether swap and PSI are
available, the cgroup driver of Docker and Podman, and whether a real trial
ran on this kind of host (and through each engine on this cgroup version)
in the project's tests.

Exit status: 0 when trials can get limits here, 2 when they cannot (the
last line names the layout and the command that fixes it).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printDoctor(cmd, cmd.OutOrStdout())
		},
	}
}

// printDoctor prints the report; a host where trials cannot get limits is
// the user's to fix (exit 2).
func printDoctor(cmd *cobra.Command, w io.Writer) error {
	r := doctor.Collect(cmd.Context(), "/", doctor.EngineDriver)
	for _, l := range r.Lines() {
		fmt.Fprintln(w, l)
	}
	return asUsage(r.Refusal)
}
