package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
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
			return execJava(&f, rest)
		},
	}
	return cmd
}

// execJava replaces jvmfit with java: rest are java's arguments, with an
// optional java launcher first.
func execJava(f *launcherFlags, rest []string) error {
	if len(rest) > 0 && isJava(rest[0]) {
		if f.java != "" {
			return usagef("give the java launcher once: --java %s or %s", f.java, rest[0])
		}
		p := rest[0]
		if !strings.Contains(p, "/") {
			lp, err := exec.LookPath(p)
			if err != nil {
				return usagef("%s is not on PATH", p)
			}
			p = lp
		}
		f.java, rest = p, rest[1:]
	}
	env, err := launch.ReadEnv(os.Getenv)
	if err != nil {
		return asUsage(err)
	}
	if env.Disabled {
		javaPath, err := javaFor(f.java)
		if err != nil {
			return err
		}
		argv, err := launch.Argv(javaPath, nil, env, rest)
		if err != nil {
			return asUsage(err)
		}
		return launch.Exec(argv, os.Environ())
	}
	// The plan is made around the user's options (the one override rule,
	// in f.plan), and its environment added unless the user's sets it.
	p, j, err := f.plan(env, rest)
	if err != nil {
		return err
	}
	if f.explain {
		_ = p.Explain(os.Stderr)
	}
	argv, err := launch.Argv(j.Path, p, env, rest)
	if err != nil {
		return asUsage(err)
	}
	return launch.Exec(argv, launch.Environ(os.Environ(), p))
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

func isJava(a string) bool { return filepath.Base(a) == "java" && !strings.HasPrefix(a, "-") }

func javaFor(flag string) (string, error) {
	p, err := jdk.Find(flag)
	if err != nil {
		return "", asUsage(err)
	}
	return p, nil
}
