package main

import (
	"github.com/spf13/cobra"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "jvmfit",
		Short: "Fit JVMs to containers: launcher, trial runner, load generator, sizing experiments",
		Long: `jvmfit sizes Java services for containers.

  flags, exec   container-aware JVM launcher
  load          open-model load generator (no coordinated omission)
  run           one trial under real cgroup limits, with an OK/KO verdict
  profile       an app's measured profile from a stored trial (for flags --profile)
  minmem        smallest memory limit that passes
  sweep         CPUs x rates x option sets x JDKs
  compare       option sets side by side
  tune          memory limit and JVM options together, proven by a soak
  report        Markdown, HTML, CSV, JSON from the results database
  doctor        where trials would run here: cgroup place, controllers, engines`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(flagErrors)
	root.Args = cobra.NoArgs
	for _, add := range commands {
		root.AddCommand(add())
	}
	return root
}

// commands is filled by each command's file (init), so that files for
// different commands never touch one another.
var commands []func() *cobra.Command
