package main

import (
	"fmt"
	"strconv"
	"strings"

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
		Version:                    version,
		SilenceUsage:               true,
		SilenceErrors:              true,
		SuggestionsMinimumDistance: 2,
		// Without a Run, cobra answers an unknown command with the help
		// and exit 0: a typo in a script would pass unnoticed.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return unknownCommand(cmd, args[0])
		},
	}
	root.SetFlagErrorFunc(flagErrors)
	for _, add := range commands {
		root.AddCommand(add())
	}
	strayArgsAreUsage(root)
	linkReferencePages(root)
	return root
}

// unknownCommand is the one-line error for `jvmfit frobnicate`, with
// cobra's suggestion when there is one.
func unknownCommand(root *cobra.Command, name string) error {
	hint := "see 'jvmfit --help'"
	if s := root.SuggestionsFor(name); len(s) > 0 {
		hint = "did you mean '" + strings.Join(s, "' or '") + "'?"
	}
	return usagef("unknown command %q: %s", name, hint)
}

// strayArgsAreUsage makes every command's argument check a usage error
// (exit 2, one line), and gives the commands that take no arguments and
// say nothing a check: cobra accepts any argument for those.
func strayArgsAreUsage(c *cobra.Command) {
	for _, sub := range c.Commands() {
		strayArgsAreUsage(sub)
	}
	if c.DisableFlagParsing || c == c.Root() {
		return // exec parses its own; the root's RunE says "unknown command"
	}
	check := c.Args
	if check == nil {
		check = cobra.NoArgs
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err == nil {
			return nil
		}
		if _, ok := err.(usageError); ok {
			return err
		}
		msg := strings.TrimSpace(err.Error())
		if !strings.Contains(msg, strconv.Quote(args[0])) {
			msg += fmt.Sprintf(": stray argument %q", args[len(args)-1])
			if len(args) > 1 {
				msg = strings.TrimSpace(err.Error()) + fmt.Sprintf(": stray arguments %q", args)
			}
		}
		return usagef("%s (see 'jvmfit %s --help')", msg, cmd.CommandPath()[len("jvmfit "):])
	}
}

// commands is filled by each command's file (init), so that files for
// different commands never touch one another.
var commands []func() *cobra.Command
