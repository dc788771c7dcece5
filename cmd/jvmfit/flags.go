package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/anchor"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

func init() { commands = append(commands, newFlagsCmd) }

// launcherFlags are shared by `flags` and `exec`.
type launcherFlags struct {
	java, memory, cpus, cpuset, goal, profile, format, root string
	explain, strict                                         bool
}

func (f *launcherFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&f.java, "java", "", "java launcher to plan for (default $JAVA_HOME/bin/java, then java on PATH)")
	fs.StringVar(&f.memory, "memory", "", "plan for this memory limit instead of the detected one (256Mi, 300M, 1G)")
	fs.StringVar(&f.cpus, "cpus", "", "plan for this CPU quota instead of the detected one (1, 1.5, 4)")
	fs.StringVar(&f.cpuset, "cpuset", "", "plan for these CPUs instead of the detected cpuset (0-1, 0-3,8)")
	fs.StringVar(&f.goal, "goal", "balanced", "footprint, balanced or throughput")
	fs.StringVar(&f.profile, "profile", "", "JSON file with the app's measured needs (see docs/launcher.md)")
	fs.BoolVar(&f.explain, "explain", false, "print a table of every option and memory region, with reasons")
	fs.BoolVar(&f.strict, "strict", false, "refuse (exit 2) where the plan is in doubt, instead of one warning line (for CI)")
	fs.StringVar(&f.root, "root", "/", "filesystem root to read /proc and /sys/fs/cgroup from")
	_ = fs.MarkHidden("root")
}

// limits detects the container's limits and applies the planning overrides.
func (f *launcherFlags) limits() (cgroup.Limits, error) {
	var mem int64
	var cpus float64
	var set []int
	var err error
	if f.memory != "" {
		if mem, err = size.Parse(f.memory); err != nil {
			return cgroup.Limits{}, usagef("--memory: %w", err)
		}
		if mem < size.MiB {
			return cgroup.Limits{}, usagef("--memory %s is below 1 MiB: give a limit like 256Mi or 1G", f.memory)
		}
	}
	if f.cpus != "" {
		cpus, err = strconv.ParseFloat(f.cpus, 64)
		if err != nil || math.IsNaN(cpus) || cpus <= 0 || cpus > 4096 {
			return cgroup.Limits{}, usagef("--cpus %q: give a positive number of CPUs such as 1, 1.5 or 4", f.cpus)
		}
	}
	if f.cpuset != "" {
		if set, err = cgroup.ParseCPUList(f.cpuset); err != nil {
			return cgroup.Limits{}, usagef("--cpuset: %w", err)
		}
	}
	l, derr := cgroup.Detect(f.root)
	if derr != nil {
		if mem == 0 || cpus == 0 {
			return cgroup.Limits{}, fmt.Errorf("cannot detect limits (%w): give --memory and --cpus", derr)
		}
		l = cgroup.Limits{SwapBytes: -1}
	}
	for _, w := range l.Warnings {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+w+" (ignored)")
	}
	if mem > 0 {
		l.MemoryBytes, l.HostMemoryBytes = mem, max(mem, l.HostMemoryBytes)
	}
	if cpus > 0 {
		if have := l.EffectiveCPUs(); set == nil && cpus > have {
			// "What will a 4-CPU pod get" is asked on a smaller machine:
			// this machine's cpuset and CPU count do not bound the answer.
			fmt.Fprintf(os.Stderr, "jvmfit: note: --cpus %s is more than the %s CPUs here: planning for %s, as in a pod with that limit\n",
				f.cpus, strconv.FormatFloat(have, 'f', -1, 64), f.cpus)
			l.CPUSet = nil
		}
		l.CPUQuota, l.CPUQuotaInherited = cpus, false
		l.HostCPUs = max(l.HostCPUs, int(math.Ceil(cpus)))
	}
	if set != nil {
		l.CPUSet = set
		l.HostCPUs = max(l.HostCPUs, len(set))
	}
	return l, nil
}

// javaOptionsAfterDash is flags' argument check: java options come after
// "--", and only options (a stray "Xmx300m" would be silently ignored).
func javaOptionsAfterDash(cmd *cobra.Command, args []string) error {
	dash := cmd.ArgsLenAtDash()
	if dash != 0 && len(args) > 0 {
		return usagef("stray argument %q: give java options after --, as in 'jvmfit flags --memory 512Mi -- -Xmx300m'", args[0])
	}
	opts, hasMain := launch.SplitArgs(args)
	if hasMain {
		return usagef("%q after -- is not a java option: flags takes options only (-Xmx300m, -XX:...), not a main class or jar", args[len(opts)])
	}
	return nil
}

// plan computes the plan for java at javaPath ("" = find it) around the
// user's options.
func (f *launcherFlags) plan(env launch.Env, user []string) (*plan.Plan, jdk.JDK, error) {
	goal, err := plan.ParseGoal(f.goal)
	if err != nil {
		return nil, jdk.JDK{}, usagef("--goal: %w", err)
	}
	var prof *plan.Profile
	if f.profile != "" {
		if prof, err = plan.LoadProfile(f.profile); err != nil {
			return nil, jdk.JDK{}, usagef("--profile: %w", err)
		}
	}
	lim, err := f.limits()
	if err != nil {
		return nil, jdk.JDK{}, err
	}
	javaPath, err := jdk.Find(f.java)
	if err != nil {
		return nil, jdk.JDK{}, asUsage(err)
	}
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		return nil, jdk.JDK{}, asUsage(err)
	}
	// The user's options win by the one override rule; p.Options is then
	// what jvmfit adds, to be followed by the user's own. A sizing doubt
	// is one warning line and the plan is made anyway (the launcher must
	// not stop a container's start), unless --strict.
	fit := plan.Fit
	if f.strict {
		fit = plan.Strict
	}
	p, _, err := fit(plan.Input{
		Limits: lim, JDK: j, Goal: goal, Profile: prof,
		MaxMemRatio: env.MaxMemRatio, InitMemRatio: env.InitMemRatio,
	}, user)
	var ref *plan.RefusedError
	if errors.As(err, &ref) {
		return nil, j, usagef("%w", err)
	}
	if err != nil {
		return nil, j, asUsage(err)
	}
	if p.Doubt != "" {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+p.Doubt+"; java starts anyway (--strict refuses)")
	}
	return p, j, nil
}

// styleOptions computes another tool's options (--style) for the same
// limits, JDK and user options as jvmfit's plan; the tool's own variables
// (JAVA_MAX_MEM_RATIO, BPL_JVM_THREAD_COUNT...) come from the environment.
func (f *launcherFlags) styleOptions(style, jar string, env launch.Env, args []string) (anchor.Options, error) {
	if !anchor.IsStyle(style) {
		return anchor.Options{}, usagef("--style %q: use jvmfit, %s", style, strings.Join(anchor.Names(), ", "))
	}
	lim, err := f.limits()
	if err != nil {
		return anchor.Options{}, err
	}
	javaPath, err := jdk.Find(f.java)
	if err != nil {
		return anchor.Options{}, asUsage(err)
	}
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		return anchor.Options{}, asUsage(err)
	}
	o, err := anchor.Compute(style, anchor.Input{
		LimitBytes: lim.EffectiveMemory(), CPUs: lim.EffectiveCPUs(), JDK: j.Version, JavaHome: j.Home,
		Jar: jar, UserOptions: env.UserOptions(args), Env: os.LookupEnv,
	})
	if err != nil {
		return anchor.Options{}, usagef("--style %s: %w", style, err)
	}
	return o, nil
}

func newFlagsCmd() *cobra.Command {
	var f launcherFlags
	var style, jar string
	cmd := &cobra.Command{
		Use:   "flags [flags] [-- JAVA_OPTIONS...]",
		Short: "Print JVM options that fit this container (or the one given by --memory/--cpus)",
		Long: `Print JVM options that fit the container: heap, metaspace, code cache, stacks and
direct memory caps that add up to the memory limit, plus GC, JIT and CPU options
for the CPU limit. Options you already give (after --, or in JAVA_OPTIONS,
JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS) win, and the rest is planned around them.`,
		Example: `  java $(jvmfit flags) -jar app.jar
  jvmfit flags --memory 256Mi --cpus 1 --explain
  jvmfit flags --memory 1G --cpus 2 --goal footprint --format k8s
  jvmfit flags --memory 512Mi -- -Xmx300m
  jvmfit flags --memory 1G --cpus 1 --style paketo --jar app.jar --explain`,
		Args: javaOptionsAfterDash,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch f.format {
			case "shell", "json", "java-tool-options", "dockerfile", "k8s":
			default:
				return usagef("--format %q: use shell, json, java-tool-options, dockerfile or k8s", f.format)
			}
			env, err := launch.ReadEnv(os.Getenv)
			if err != nil {
				return asUsage(err)
			}
			if style != "jvmfit" {
				if cmd.Flags().Changed("goal") || f.profile != "" {
					return usagef("--goal and --profile plan jvmfit's options: drop them with --style %s", style)
				}
				o, err := f.styleOptions(style, jar, env, args)
				if err != nil {
					return err
				}
				if f.explain {
					return o.Explain(cmd.OutOrStdout())
				}
				return o.Write(cmd.OutOrStdout(), f.format)
			}
			if jar != "" {
				return usagef("--jar: only --style paketo counts a jar's classes")
			}
			p, _, err := f.plan(env, env.UserOptions(args))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if f.explain {
				return p.Explain(out)
			}
			return p.Write(out, f.format)
		},
	}
	f.bind(cmd.Flags())
	cmd.Flags().StringVar(&f.format, "format", "shell", "shell, json, java-tool-options, dockerfile or k8s")
	cmd.Flags().StringVar(&style, "style", "jvmfit", "whose options: jvmfit, or what you would use instead: jdk, runjava, paketo, ubi (docs/anchors.md)")
	cmd.Flags().StringVar(&jar, "jar", "", "the app's jar, for --style paketo (it counts the classes)")
	return cmd
}
