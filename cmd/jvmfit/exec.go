package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/launcher"
)

func init() { commands = append(commands, newExecCmd) }

func newExecCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exec [flags] [--] [java] ARGS...",
		Short: "Run java with options that fit the container, replacing jvmfit (fit to be PID 1)",
		Long: `Compute the options as 'jvmfit flags' does, then replace this process with the
JVM (exec), so signals and the exit code are the JVM's own. ARGS are java's
arguments; a leading 'java' or path to a java launcher picks that JDK.
JAVA_OPTIONS are added after jvmfit's options; JAVA_APP_JAR or JAVA_MAIN_CLASS
is run when ARGS name no main. JVMFIT_DISABLE=1 runs java unchanged.`,
		Example: `  jvmfit exec -jar app.jar
  jvmfit exec --goal footprint -- java -Xss1m -cp app.jar com.example.Main
  JAVA_APP_JAR=/app.jar jvmfit exec`,
		// java's own arguments (-jar, -cp, -Xmx...) must reach java
		// untouched, so jvmfit's flags are parsed by hand.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			var f launcherFlags
			fs := pflag.NewFlagSet("exec", pflag.ContinueOnError)
			f.bind(fs)
			ours, rest, help := splitExecArgs(fs, args)
			if help {
				return cmd.Help()
			}
			if err := fs.Parse(ours); err != nil {
				return usagef("%w (see 'jvmfit exec --help')", err)
			}
			return asLauncher(launcher.Exec(f.request(), rest))
		},
	}
	return cmd
}

// splitExecArgs takes jvmfit's own flags from the front of args; the rest,
// after an optional "--", belongs to java.
func splitExecArgs(fs *pflag.FlagSet, args []string) (ours, rest []string, help bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ours, args[i+1:], false
		}
		if a == "-h" || a == "--help" {
			return nil, nil, true
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		fl := fs.Lookup(name)
		if !strings.HasPrefix(a, "--") || fl == nil {
			return ours, args[i:], false
		}
		ours = append(ours, a)
		if !hasVal && fl.Value.Type() != "bool" && i+1 < len(args) {
			i++
			ours = append(ours, args[i])
		}
	}
	return ours, nil, false
}
