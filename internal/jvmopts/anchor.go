package jvmopts

import (
	"fmt"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/anchor"
	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// anchored gives what another tool (run-java.sh, Paketo, UBI) would give
// the JVM at the trial's own limits, with the descriptor's jvm_options
// treated the way that tool treats its user's variable. A Paketo limit
// too small for its regions is a *plan.RefusedError, like the planner's:
// experiments count it as a KO that costs no trial.
func anchored(r Request, style string) (Resolved, error) {
	mem, cpus := r.MemoryBytes, r.CPUs
	if mem <= 0 || cpus <= 0 {
		// No limit: the tool would see the host's (or jvmfit's cgroup's).
		lim, err := cgroup.Detect("/")
		if err != nil {
			return Resolved{}, fmt.Errorf("--jvm %s: cannot read the host's limits: %w", style, err)
		}
		if mem <= 0 {
			mem = lim.EffectiveMemory()
		}
		if cpus <= 0 {
			cpus = lim.EffectiveCPUs()
		}
	}
	o, err := anchor.Compute(style, anchor.Input{
		LimitBytes: mem, CPUs: cpus, JDK: r.JDK.Version, JavaHome: r.JDK.Home,
		Jar: r.Jar, UserOptions: r.UserOptions,
	})
	if err != nil {
		return Resolved{}, fmt.Errorf("--jvm %s: %w", style, err)
	}
	return Resolved{Options: o.Args, Env: o.Env}, nil
}

// AppJar is the jar an app runs: the descriptor's jar, or the jar its
// command runs (app.CommandJar), relative to its directory; "" if neither.
func AppJar(a *app.App) string {
	if a == nil {
		return ""
	}
	if a.Jar != "" {
		return a.Jar
	}
	j := app.CommandJar(a.Command)
	if j != "" && !filepath.IsAbs(j) && a.Dir != "" {
		j = filepath.Join(a.Dir, j)
	}
	return j
}
