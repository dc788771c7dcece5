package launcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// Exec replaces jvmfit with java: rest are java's arguments, with an
// optional java launcher first, or a command that runs java itself. jvmfit
// is then a container's PID 1 until the exec, and:
//   - JVMFIT_DISABLE is read before anything else, and then the command
//     runs as given (execAsIs);
//   - a SIGTERM, SIGINT or SIGHUP while it plans ends it with the signal's
//     status (SignalError) and java never starts;
//   - limits it cannot detect, where the flags do not give them, are one
//     warning line and the command as given (unless --strict).
func Exec(ctx context.Context, f Request, rest []string) error {
	f, rest, err := javaFirst(f, rest)
	if err != nil {
		return err
	}
	if launch.Disabled(os.Getenv) {
		return execAsIs(f, rest)
	}
	ctx, stop := watchSignals(ctx)
	run, err := f.prepare(ctx, rest)
	if serr := stop(); serr != nil {
		return serr
	}
	if err != nil {
		return err
	}
	return launch.Exec(run.argv, run.environ)
}

// ExecRecording is Exec that stays java's parent (supervise) and samples
// it for rec: exec --record-profile. The recorder learns what java runs
// with (Run) before its first window.
func ExecRecording(ctx context.Context, f Request, rest []string, s Supervision, rec func(Run) Recorder) error {
	f, rest, err := javaFirst(f, rest)
	if err != nil {
		return err
	}
	if launch.Disabled(os.Getenv) {
		return execAsIs(f, rest)
	}
	wctx, stop := watchSignals(ctx)
	run, err := f.prepare(wctx, rest)
	if serr := stop(); serr != nil {
		return serr
	}
	if err != nil {
		return err
	}
	s.Recorder = rec(run.Run)
	return supervise(ctx, run.argv, run.environ, s)
}

// Run is what a recorder is told of the java it records.
type Run struct {
	// App names the app: the jar's name without .jar, the main class, or
	// the command's name.
	App string
	// Options are java's options as planned and given (none for a
	// command that starts java itself).
	Options []string
	// Input is the planner's input the options were made from (its
	// Profile the --profile read, nil without one): zero when no limits
	// were detected and java runs as given.
	Input plan.Input
	// Planned is false when java runs as given.
	Planned bool
}

// prepared is what exec starts: the command line, its environment, and
// what it was planned from.
type prepared struct {
	argv, environ []string
	Run
}

// javaFirst takes a leading java launcher off rest: the JDK to plan for.
func javaFirst(f Request, rest []string) (Request, []string, error) {
	if len(rest) == 0 || !isJava(rest[0]) {
		return f, rest, nil
	}
	if f.Java != "" {
		return f, nil, inputf("give the java launcher once: --java %s or %s", f.Java, rest[0])
	}
	p := rest[0]
	if !strings.Contains(p, "/") {
		lp, err := exec.LookPath(p)
		if err != nil {
			return f, nil, inputf("%s is not on PATH", p)
		}
		p = lp
	}
	f.Java = p
	return f, rest[1:], nil
}

// prepare is the command line and environment exec replaces jvmfit with:
// java with the plan made around the user's options (the one override
// rule, in f.plan), or a command that runs java itself with the plan in
// its environment.
func (f Request) prepare(ctx context.Context, rest []string) (prepared, error) {
	env, err := launch.ReadEnv(os.Getenv)
	if err != nil {
		return prepared{}, asInput(err)
	}
	script := len(rest) > 0 && launch.IsCommand(rest[0])
	var user []string
	if script {
		user, err = env.ScriptOptions()
	} else {
		user, err = env.UserOptions(rest)
	}
	if err != nil {
		return prepared{}, asInput(err)
	}
	app := appName(env, rest, script)
	p, in, err := f.planInput(ctx, env, user, app)
	j := in.JDK
	var none *NoLimitsError
	if errors.As(err, &none) && !f.Strict {
		fmt.Fprintf(os.Stderr, "jvmfit: warning: %v; java starts with your options only (--strict refuses)\n", err)
		argv, environ, err := asGiven(f, env, rest, script)
		return prepared{argv: argv, environ: environ, Run: Run{App: app}}, err
	}
	if err != nil {
		return prepared{}, err
	}
	if f.Explain {
		_ = p.Explain(os.Stderr)
	} else {
		for _, w := range plan.VerifierWarnings(user) {
			fmt.Fprintln(os.Stderr, "jvmfit: warning: "+w)
		}
	}
	run := Run{App: app, Input: in, Planned: true}
	if script {
		path, err := exec.LookPath(rest[0])
		if err != nil {
			return prepared{}, inputf("%s: %v", rest[0], err)
		}
		// The plan goes to the command's java through JDK_JAVA_OPTIONS,
		// made around JAVA_OPTS too, which such commands put on java's
		// command line.
		return prepared{append([]string{path}, rest[1:]...), launch.ScriptEnviron(os.Environ(), p, j.Version), run}, nil
	}
	argv, err := launch.Argv(j.Path, p, env, rest)
	if err != nil {
		return prepared{}, asInput(err)
	}
	run.Options, _ = launch.SplitArgs(argv[1:])
	return prepared{argv, launch.Environ(os.Environ(), p), run}, nil
}

// execAsIs runs the command as given, for JVMFIT_DISABLE: only jvmfit's
// own launch variables are read (JAVA_OPTIONS, JAVA_APP_JAR,
// JAVA_MAIN_CLASS: how run-java.sh spells the command); what java and the
// JVM read themselves (JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, _JAVA_OPTIONS,
// argfiles) is left to them, and nothing else is parsed.
func execAsIs(f Request, rest []string) error {
	javaOptions, err := launch.SplitOptions(os.Getenv("JAVA_OPTIONS"))
	if err != nil {
		return inputf("JAVA_OPTIONS: %w", err)
	}
	env := launch.Env{JavaOptions: javaOptions, AppJar: os.Getenv("JAVA_APP_JAR"), MainClass: os.Getenv("JAVA_MAIN_CLASS")}
	argv, environ, err := asGiven(f, env, rest, len(rest) > 0 && launch.IsCommand(rest[0]))
	if err != nil {
		return err
	}
	return launch.Exec(argv, environ)
}

// asGiven is the user's command with none of jvmfit's options or
// variables: java with the arguments (and JAVA_OPTIONS), or the command.
func asGiven(f Request, env launch.Env, rest []string, script bool) (argv, environ []string, err error) {
	if script {
		path, err := exec.LookPath(rest[0])
		if err != nil {
			return nil, nil, inputf("%s: %v", rest[0], err)
		}
		return append([]string{path}, rest[1:]...), os.Environ(), nil
	}
	javaPath, err := javaFor(f.Java)
	if err != nil {
		return nil, nil, err
	}
	argv, err = launch.Argv(javaPath, nil, env, rest)
	if err != nil {
		return nil, nil, asInput(err)
	}
	return argv, os.Environ(), nil
}

func isJava(a string) bool { return filepath.Base(a) == "java" && !strings.HasPrefix(a, "-") }

func javaFor(flag string) (string, error) {
	p, err := jdk.Find(flag)
	if err != nil {
		return "", asInput(err)
	}
	return p, nil
}
