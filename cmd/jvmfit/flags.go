package main

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jvmfit/jvmfit/internal/launcher"
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
	fs.StringVar(&f.profile, "profile", "", "JSON file with the app's measured needs (see docs/profile.md)")
	fs.BoolVar(&f.explain, "explain", false, "print a table of every option and memory region, with reasons")
	fs.BoolVar(&f.strict, "strict", false, "refuse (exit 2) where the plan is in doubt, instead of one warning line (for CI)")
	fs.StringVar(&f.root, "root", "/", "filesystem root to read /proc and /sys/fs/cgroup from")
	_ = fs.MarkHidden("root")
}

// request is the launcher's request these flags make.
func (f *launcherFlags) request() launcher.Request {
	return launcher.Request{Java: f.java, Memory: f.memory, CPUs: f.cpus, CPUSet: f.cpuset, Goal: f.goal,
		Profile: f.profile, Root: f.root, Explain: f.explain, Strict: f.strict}
}

// javaOptionsAfterDash is flags' argument check: java options come after
// "--", and only options (a stray "Xmx300m" would be silently ignored).
func javaOptionsAfterDash(cmd *cobra.Command, args []string) error {
	if dash := cmd.ArgsLenAtDash(); dash != 0 && len(args) > 0 {
		return usagef("stray argument %q: give java options after --, as in 'jvmfit flags --memory 512Mi -- -Xmx300m'", args[0])
	}
	return asLauncher(launcher.JavaOptionsOnly(args))
}

// asLauncher makes the launcher's input errors usage errors (exit 2).
func asLauncher(err error) error {
	var in *launcher.InputError
	if errors.As(err, &in) {
		return asUsage(err)
	}
	return err
}

func newFlagsCmd() *cobra.Command {
	var f launcherFlags
	var style, jar string
	var emit emitFlags
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
  jvmfit flags --memory 1G --cpus 1 --style paketo --jar app.jar --explain
  jvmfit flags --memory 320Mi --cpus 1 --profile app.json --emit k8s --emit-name orders`,
		Args: javaOptionsAfterDash,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch f.format {
			case "shell", "json", "java-tool-options", "dockerfile", "k8s":
			default:
				return usagef("--format %q: use shell, json, java-tool-options, dockerfile or k8s", f.format)
			}
			conflict := ""
			if cmd.Flags().Changed("format") {
				conflict = "--format"
			}
			if err := emit.check(conflict); err != nil {
				return err
			}
			if emit.kind != "" && (f.profile == "" || style != "jvmfit" || f.explain) {
				return usagef("--emit is the plan from a measured app: give --profile FILE (and no --style or --explain)")
			}
			env, err := launcher.ReadEnv()
			if err != nil {
				return asLauncher(err)
			}
			if style != "jvmfit" {
				if cmd.Flags().Changed("goal") || f.profile != "" {
					return usagef("--goal and --profile plan jvmfit's options: drop them with --style %s", style)
				}
				o, err := launcher.Style(f.request(), style, jar, env, args)
				if err != nil {
					return asLauncher(err)
				}
				if f.explain {
					return o.Explain(cmd.OutOrStdout())
				}
				return o.Write(cmd.OutOrStdout(), f.format)
			}
			if jar != "" {
				return usagef("--jar: only --style paketo counts a jar's classes")
			}
			p, err := launcher.Plan(f.request(), env, args)
			if err != nil {
				return asLauncher(err)
			}
			out := cmd.OutOrStdout()
			if f.explain {
				return p.Explain(out)
			}
			if emit.kind != "" {
				return emit.write(out, planAnswer(p, args, f.profile), "")
			}
			return p.Write(out, f.format)
		},
	}
	f.bind(cmd.Flags())
	cmd.Flags().StringVar(&f.format, "format", "shell", "shell, json, java-tool-options, dockerfile or k8s")
	cmd.Flags().StringVar(&style, "style", "jvmfit", "whose options: jvmfit, or what you would use instead: jdk, runjava, paketo, ubi (docs/anchors.md)")
	cmd.Flags().StringVar(&jar, "jar", "", "the app's jar, for --style paketo (it counts the classes)")
	emit.bind(cmd.Flags())
	return cmd
}
