package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/launcher"
)

func init() { commands = append(commands, newExecCmd) }

func newExecCmd() *cobra.Command {
	var f launcherFlags
	var rec recordFlags
	cmd := &cobra.Command{
		Use:   "exec [flags] [--] [java|COMMAND] ARGS...",
		Short: "Run java with options that fit the container, replacing jvmfit (fit to be PID 1)",
		Long: `Compute the options as 'jvmfit flags' does, then replace this process with the
JVM (exec), so signals and the exit code are the JVM's own. ARGS are java's
arguments; a leading 'java' or path to a java launcher picks that JDK. A leading
COMMAND that is not java (a start script) runs instead, with jvmfit's options in
JDK_JAVA_OPTIONS and planned around JAVA_OPTS. JAVA_OPTIONS are added after
jvmfit's options; JAVA_APP_JAR or JAVA_MAIN_CLASS is run when ARGS name no main.
JVMFIT_DISABLE=1 runs java unchanged.

Your options win, and sizing never stops the start: where the limit is too
small for them, what you left open gets no cap and one warning line says so
(--strict refuses instead). jvmfit's flags end at --, or at the first argument
that is not a -- flag; an unknown --flag before that is refused.

With --record-profile FILE jvmfit stays java's parent instead (PID 1 safe:
it forwards SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2, reaps, and
exits with java's status; java dies with it), samples java and writes its
peaks to FILE every --record-every and at exit (docs/profile-record.md).`,
		Example: `  jvmfit exec -jar app.jar
  jvmfit exec --profile /data/app.json --record-profile /data/app.json -- java -jar app.jar
  jvmfit exec --goal footprint -- java -Xss1m -cp app.jar com.example.Main
  jvmfit exec -- /app/bin/start.sh
  JAVA_APP_JAR=/app.jar jvmfit exec`,
		// java's own arguments (-jar, -cp, -Xmx...) must reach java
		// untouched, so jvmfit's flags are parsed by hand.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			ours, rest, help, err := splitExecArgs(fs, args)
			if err != nil {
				return err
			}
			if help {
				return cmd.Help()
			}
			if err := fs.Parse(ours); err != nil {
				return usagef("%w (see 'jvmfit exec --help')", err)
			}
			if rec.path == "" {
				return asLauncher(launcher.Exec(cmd.Context(), f.request(), rest))
			}
			if err := rec.check(); err != nil {
				return err
			}
			req := f.request()
			req.Record = rec.path
			return asLauncher(launcher.ExecRecording(cmd.Context(), req, rest, rec.supervision(), rec.recorder(cmd.ErrOrStderr())))
		},
	}
	// Bound to the command so that --help lists them; parsed by hand.
	f.bind(cmd.Flags())
	rec.bind(cmd.Flags())
	return cmd
}

// splitExecArgs takes jvmfit's own flags from the front of args: they end
// at "--" (dropped) or at the first word that is not a "--" flag, or at one
// of java's own "--" options; the rest belongs to java. Any other "--"
// word before the end is refused: a typo of jvmfit's flags (--memroy) must
// not reach java as an argument.
func splitExecArgs(fs *pflag.FlagSet, args []string) (ours, rest []string, help bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ours, args[i+1:], false, nil
		case a == "-h" || a == "--help":
			return nil, nil, true, nil
		case !strings.HasPrefix(a, "--") || launcher.IsJavaLongOption(a):
			return ours, args[i:], false, nil
		}
		name, _, hasVal := strings.Cut(a[2:], "=")
		fl := fs.Lookup(name)
		if fl == nil {
			return nil, nil, false, unknownExecFlag(fs, a)
		}
		ours = append(ours, a)
		if !hasVal && fl.Value.Type() != "bool" {
			if i+1 == len(args) {
				return nil, nil, false, usagef("flag needs an argument: %s (see 'jvmfit exec --help')", a)
			}
			i++
			ours = append(ours, args[i])
		}
	}
	return ours, nil, false, nil
}

// unknownExecFlag is the one-line refusal of an unknown "--" word among
// exec's own flags, naming the closest flag when it is a typo.
func unknownExecFlag(fs *pflag.FlagSet, a string) error {
	name, _, _ := strings.Cut(a[2:], "=")
	best, bestD := "", 3
	fs.VisitAll(func(fl *pflag.Flag) {
		if d := editDistance(name, fl.Name); d < bestD && !fl.Hidden {
			best, bestD = fl.Name, d
		}
	})
	if best != "" {
		return usagef("unknown flag %s: did you mean --%s? (java's own options go after --: jvmfit exec [flags] -- java ...)", a, best)
	}
	return usagef("unknown flag %s: not a jvmfit exec flag (see 'jvmfit exec --help'); java's own options go after --: jvmfit exec [flags] -- java ...", a)
}

// editDistance is the Levenshtein distance, for typos of a flag's name.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
