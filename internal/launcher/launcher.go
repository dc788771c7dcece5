// Package launcher is jvmfit's launcher as the flags and exec commands
// run it: the limits a plan is made for (detected, then overridden by the
// flags through cgroup.Limits.Override), the plan around the user's
// options, another tool's options for the same inputs (--style), and the
// exec of java. cmd/jvmfit only reads its flags into a Request and prints.
package launcher

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/anchor"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Request is what the flags and exec commands were given.
type Request struct {
	Java, Memory, CPUs, CPUSet, Goal, Profile string
	// Root is the filesystem root /proc and /sys/fs/cgroup are read from.
	Root    string
	Explain bool
	// Strict refuses where the plan is in doubt, instead of one warning
	// line (for CI); the launcher never stops a start over sizing otherwise.
	Strict bool
}

// InputError is an error that is the user's to fix (exit 2).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

func asInput(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{err}
}

// limits detects the container's limits and applies the planning overrides.
func (f Request) limits() (cgroup.Limits, error) {
	var mem int64
	var cpus float64
	var set []int
	var err error
	if f.Memory != "" {
		if mem, err = size.Parse(f.Memory); err != nil {
			return cgroup.Limits{}, inputf("--memory: %w", err)
		}
		if mem < size.MiB {
			return cgroup.Limits{}, inputf("--memory %s is below 1 MiB: give a limit like 256Mi or 1G", f.Memory)
		}
	}
	if f.CPUs != "" {
		cpus, err = strconv.ParseFloat(f.CPUs, 64)
		if err != nil || math.IsNaN(cpus) || cpus <= 0 || cpus > 4096 {
			return cgroup.Limits{}, inputf("--cpus %q: give a positive number of CPUs such as 1, 1.5 or 4", f.CPUs)
		}
	}
	if f.CPUSet != "" {
		if set, err = cgroup.ParseCPUList(f.CPUSet); err != nil {
			return cgroup.Limits{}, inputf("--cpuset: %w", err)
		}
	}
	l, derr := cgroup.Detect(f.Root)
	if derr != nil {
		if mem == 0 || cpus == 0 {
			return cgroup.Limits{}, fmt.Errorf("cannot detect limits (%w): give --memory and --cpus", derr)
		}
		l = cgroup.Limits{SwapBytes: -1}
	}
	for _, w := range l.Warnings {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+w+" (ignored)")
	}
	if have := l.EffectiveCPUs(); cpus > have && set == nil {
		fmt.Fprintf(os.Stderr, "jvmfit: note: --cpus %s is more than the %s CPUs here: planning for %s, as in a pod with that limit\n",
			f.CPUs, strconv.FormatFloat(have, 'f', -1, 64), f.CPUs)
	}
	return l.Override(mem, cpus, set), nil
}

// Plan is jvmfit's plan for the request's java, limits and goal, made
// around the user's options (args and the JAVA_* variables in env).
func Plan(f Request, env launch.Env, args []string) (*plan.Plan, error) {
	user, err := env.UserOptions(args)
	if err != nil {
		return nil, asInput(err)
	}
	p, _, err := f.plan(env, user)
	return p, err
}

// JavaOptionsOnly is flags' argument check: what follows "--" must be java
// options, not a main class or a jar (a stray word would be ignored).
func JavaOptionsOnly(args []string) error {
	opts, hasMain := launch.SplitArgs(args)
	if hasMain {
		return inputf("%q after -- is not a java option: flags takes options only (-Xmx300m, -XX:...), not a main class or jar", args[len(opts)])
	}
	return nil
}

// IsJavaLongOption says whether a "--" word is one of java's own options
// (--add-opens...), which ends exec's flags.
func IsJavaLongOption(a string) bool { return launch.IsJavaLongOption(a) }

// ReadEnv reads the launcher's environment variables (run-java.sh's
// JAVA_OPTIONS, JAVA_MAX_MEM_RATIO...).
func ReadEnv() (launch.Env, error) {
	env, err := launch.ReadEnv(os.Getenv)
	return env, asInput(err)
}

// Style is another tool's options (--style) for the request.
func Style(f Request, style, jar string, env launch.Env, args []string) (anchor.Options, error) {
	return f.styleOptions(style, jar, env, args)
}

// plan computes the plan for the request's java ("" = find it) around the
// user's options.
func (f Request) plan(env launch.Env, user []string) (*plan.Plan, jdk.JDK, error) {
	goal, err := plan.ParseGoal(f.Goal)
	if err != nil {
		return nil, jdk.JDK{}, inputf("--goal: %w", err)
	}
	var prof *plan.Profile
	if f.Profile != "" {
		if prof, err = plan.LoadProfile(f.Profile); err != nil {
			return nil, jdk.JDK{}, inputf("--profile: %w", err)
		}
	}
	lim, err := f.limits()
	if err != nil {
		return nil, jdk.JDK{}, err
	}
	javaPath, err := jdk.Find(f.Java)
	if err != nil {
		return nil, jdk.JDK{}, asInput(err)
	}
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		return nil, jdk.JDK{}, asInput(err)
	}
	// The user's options win by the one override rule; p.Options is then
	// what jvmfit adds, to be followed by the user's own. A sizing doubt
	// is one warning line and the plan is made anyway (the launcher must
	// not stop a container's start), unless Strict.
	fit := plan.Fit
	if f.Strict {
		fit = plan.Strict
	}
	p, _, err := fit(plan.Input{
		Limits: lim, JDK: j, Goal: goal, Profile: prof,
		MaxMemRatio: env.MaxMemRatio, InitMemRatio: env.InitMemRatio,
	}, user)
	var ref *plan.RefusedError
	if errors.As(err, &ref) {
		return nil, j, inputf("%w", err)
	}
	if err != nil {
		return nil, j, asInput(err)
	}
	if p.Doubt != "" {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+p.Doubt+"; java starts anyway (--strict refuses)")
	}
	return p, j, nil
}

// styleOptions computes another tool's options (--style) for the same
// limits, JDK and user options as jvmfit's plan; the tool's own variables
// (JAVA_MAX_MEM_RATIO, BPL_JVM_THREAD_COUNT...) come from the environment.
func (f Request) styleOptions(style, jar string, env launch.Env, args []string) (anchor.Options, error) {
	if !anchor.IsStyle(style) {
		return anchor.Options{}, inputf("--style %q: use jvmfit, %s", style, strings.Join(anchor.Names(), ", "))
	}
	lim, err := f.limits()
	if err != nil {
		return anchor.Options{}, err
	}
	javaPath, err := jdk.Find(f.Java)
	if err != nil {
		return anchor.Options{}, asInput(err)
	}
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		return anchor.Options{}, asInput(err)
	}
	user, err := env.UserOptions(args)
	if err != nil {
		return anchor.Options{}, asInput(err)
	}
	o, err := anchor.Compute(style, anchor.Input{
		LimitBytes: lim.EffectiveMemory(), CPUs: lim.EffectiveCPUs(), JDK: j.Version, JavaHome: j.Home,
		Jar: jar, UserOptions: user, Env: os.LookupEnv,
	})
	if err != nil {
		return anchor.Options{}, inputf("--style %s: %w", style, err)
	}
	return o, nil
}

// Exec replaces jvmfit with java: rest are java's arguments, with an
// optional java launcher first.
func Exec(f Request, rest []string) error {
	if len(rest) > 0 && isJava(rest[0]) {
		if f.Java != "" {
			return inputf("give the java launcher once: --java %s or %s", f.Java, rest[0])
		}
		p := rest[0]
		if !strings.Contains(p, "/") {
			lp, err := exec.LookPath(p)
			if err != nil {
				return inputf("%s is not on PATH", p)
			}
			p = lp
		}
		f.Java, rest = p, rest[1:]
	}
	env, err := launch.ReadEnv(os.Getenv)
	if err != nil {
		return asInput(err)
	}
	script := len(rest) > 0 && launch.IsCommand(rest[0])
	if env.Disabled && script {
		path, err := exec.LookPath(rest[0])
		if err != nil {
			return inputf("%s: %v", rest[0], err)
		}
		return launch.Exec(append([]string{path}, rest[1:]...), os.Environ())
	}
	if env.Disabled {
		javaPath, err := javaFor(f.Java)
		if err != nil {
			return err
		}
		argv, err := launch.Argv(javaPath, nil, env, rest)
		if err != nil {
			return asInput(err)
		}
		return launch.Exec(argv, os.Environ())
	}
	if script {
		return f.execCommand(env, rest)
	}
	// The plan is made around the user's options (the one override rule,
	// in f.plan), and its environment added unless the user's sets it.
	user, err := env.UserOptions(rest)
	if err != nil {
		return asInput(err)
	}
	p, j, err := f.plan(env, user)
	if err != nil {
		return err
	}
	if f.Explain {
		_ = p.Explain(os.Stderr)
	}
	argv, err := launch.Argv(j.Path, p, env, rest)
	if err != nil {
		return asInput(err)
	}
	return launch.Exec(argv, launch.Environ(os.Environ(), p))
}

// execCommand replaces jvmfit with a command that runs java itself (a
// start script): the plan goes to its java through JDK_JAVA_OPTIONS, made
// around JAVA_OPTS too, which such commands put on java's command line.
func (f Request) execCommand(env launch.Env, argv []string) error {
	user, err := env.ScriptOptions()
	if err != nil {
		return asInput(err)
	}
	p, j, err := f.plan(env, user)
	if err != nil {
		return err
	}
	if f.Explain {
		_ = p.Explain(os.Stderr)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return inputf("%s: %v", argv[0], err)
	}
	return launch.Exec(append([]string{path}, argv[1:]...), launch.ScriptEnviron(os.Environ(), p, j.Version))
}

func isJava(a string) bool { return filepath.Base(a) == "java" && !strings.HasPrefix(a, "-") }

func javaFor(flag string) (string, error) {
	p, err := jdk.Find(flag)
	if err != nil {
		return "", asInput(err)
	}
	return p, nil
}
