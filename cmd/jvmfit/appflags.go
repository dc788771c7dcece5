package main

import (
	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/scaffold"
)

// ownAppFlags give an app without an app.yaml (docs/your-service.md): a
// jar, its arguments and environment, and the paths its scenario GETs.
// internal/scaffold turns them, with the framework's port wiring and
// readiness, into the descriptor jvmfit init would write.
type ownAppFlags struct {
	jar             string
	args, env, gets []string
	// cmd is the command the flags are on: its context stops an image's
	// detection on SIGINT.
	cmd *cobra.Command
}

// register adds the flags; withJar is false for run, which has its own
// --jar.
func (f *ownAppFlags) register(cmd *cobra.Command, withJar bool) {
	f.cmd = cmd
	fl := cmd.Flags()
	if withJar {
		fl.StringVar(&f.jar, "jar", "", "your app's runnable jar instead of --app: port and readiness come from its framework, as jvmfit init finds them (docs/your-service.md)")
	}
	fl.StringArrayVar(&f.gets, "get", nil, "with --jar or --image: a path the scenario GETs, starting with '/' (repeatable; default: the framework's health endpoint)")
	fl.StringArrayVar(&f.args, "arg", nil, "with --jar or --image: an argument for the app, after the port wiring (repeatable)")
	fl.StringArrayVar(&f.env, "env", nil, "with --jar or --image: K=V in the app's environment (repeatable)")
}

// resolve picks the app from src and these flags; what is generated is
// kept next to the database (DB.logs/apps/).
func (f *ownAppFlags) resolve(src app.Source, db, java string) (*app.App, error) {
	sf := scaffold.Flags{Args: f.args, Env: f.env, Gets: f.gets, Dir: db + ".logs/apps", Ctx: f.cmd.Context(), Java: java}
	return sf.Resolve(src)
}
