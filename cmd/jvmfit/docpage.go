package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// referencePages: the page that documents each command, named at the end of
// its --help, so that a user goes from the flags to the rules in one step.
// docs/helpflags_test.go checks that the page's flag tables match --help.
var referencePages = map[string]string{
	"flags":        "docs/launcher.md",
	"exec":         "docs/launcher.md",
	"load":         "docs/load.md",
	"run":          "docs/run.md",
	"profile":      "docs/profile.md",
	"profile diff": "docs/profile-record.md",
	"minmem":       "docs/experiments.md",
	"sweep":        "docs/experiments.md",
	"compare":      "docs/experiments.md",
	"tune":         "docs/tune.md",
	"report":       "docs/report.md",
	"doctor":       "docs/sandbox.md",
	"init":         "docs/your-service.md",
}

// linkReferencePages appends "Reference: PAGE" to the long help of every
// command that has a page, subcommands included ("profile diff").
func linkReferencePages(root *cobra.Command) {
	for _, c := range root.Commands() {
		linkReferencePages(c)
		name := strings.TrimPrefix(c.CommandPath(), root.Root().Name()+" ")
		page, ok := referencePages[name]
		if !ok {
			continue
		}
		long := c.Long
		if long == "" {
			long = c.Short
		}
		c.Long = strings.TrimRight(long, "\n") + "\n\nReference: " + page + " (in jvmfit's repository)"
	}
}
