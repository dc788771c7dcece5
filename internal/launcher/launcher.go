// Package launcher is jvmfit's launcher as the flags and exec commands
// run it: the limits a plan is made for (detected, then overridden by the
// flags through cgroup.Limits.Override), the plan around the user's
// options, another tool's options for the same inputs (--style), and the
// exec of java. cmd/jvmfit only reads its flags into a Request and prints.
package launcher

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
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
	// Record is exec's --record-profile file. With it, a --profile that is
	// missing, corrupt or another app's is one warning line and a plan
	// without a profile (profileFor), never a blocked start.
	Record string
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

// NoLimitsError is limits that cannot be detected where the flags do not
// give them all: nothing to plan for. flags refuses; exec warns and runs
// the user's command unchanged (exec.go), unless --strict.
type NoLimitsError struct{ Err error }

func (e *NoLimitsError) Error() string {
	return fmt.Sprintf("cannot detect limits (%v): give --memory and --cpus", e.Err)
}
func (e *NoLimitsError) Unwrap() error { return e.Err }

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
			return cgroup.Limits{}, &NoLimitsError{derr}
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
	p, _, err := f.plan(context.Background(), env, user, "")
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
// user's options; ctx ends a `java -version` probe. app names the app exec
// runs ("" for flags), for a recorded profile's check.
func (f Request) plan(ctx context.Context, env launch.Env, user []string, app string) (*plan.Plan, jdk.JDK, error) {
	p, in, err := f.planInput(ctx, env, user, app)
	return p, in.JDK, err
}

// planInput is plan, with the planner's input it was made from.
func (f Request) planInput(ctx context.Context, env launch.Env, user []string, app string) (*plan.Plan, plan.Input, error) {
	goal, err := plan.ParseGoal(f.Goal)
	if err != nil {
		return nil, plan.Input{}, inputf("--goal: %w", err)
	}
	prof, err := f.profileFor(app)
	if err != nil {
		return nil, plan.Input{}, err
	}
	lim, err := f.limits()
	if err != nil {
		return nil, plan.Input{}, err
	}
	javaPath, err := jdk.Find(f.Java)
	if err != nil {
		return nil, plan.Input{}, asInput(err)
	}
	j, err := jdk.InspectContext(ctx, javaPath)
	if err != nil {
		return nil, plan.Input{}, asInput(err)
	}
	// The user's options win by the one override rule; p.Options is then
	// what jvmfit adds, to be followed by the user's own. A sizing doubt
	// is one warning line and the plan is made anyway (the launcher must
	// not stop a container's start), unless Strict.
	fit := plan.Fit
	if f.Strict {
		fit = plan.Strict
	}
	in := plan.Input{
		Limits: lim, JDK: j, Goal: goal, Profile: prof,
		MaxMemRatio: env.MaxMemRatio, InitMemRatio: env.InitMemRatio,
	}
	p, _, err := fit(in, user)
	in.UserOptions = user
	var ref *plan.RefusedError
	if errors.As(err, &ref) {
		return nil, in, inputf("%w", err)
	}
	if err != nil {
		return nil, in, asInput(err)
	}
	if p.Doubt != "" {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+p.Doubt+"; java starts anyway (--strict refuses)")
	}
	return p, in, nil
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
