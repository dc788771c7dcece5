package jvmopts

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// planned asks the planner for options fitting the trial's own limits (not
// jvmfit's), with the host's figures where the trial sets no limit, and
// places the descriptor's options by the one override rule, as jvmfit
// flags and exec place theirs. It plans by exec's rule too (plan.Fit): a
// limit the user's options squeeze gets the plan exec would give java
// (what does not fit uncapped, Resolved.Doubt saying so), so a trial
// measures what the entrypoint would run; Request.Strict refuses instead,
// as exec --strict does.
func planned(r Request, goal string) (Resolved, error) {
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return Resolved{}, fmt.Errorf("--jvm jvmfit:%s: %w", goal, err)
	}
	lim, err := cgroup.Detect("/")
	if err != nil {
		return Resolved{}, fmt.Errorf("--jvm jvmfit: cannot read the host's limits: %w", err)
	}
	var set []int
	if r.CPUSet != "" {
		if set, err = cgroup.ParseCPUList(r.CPUSet); err != nil {
			return Resolved{}, fmt.Errorf("--cpuset: %w", err)
		}
	}
	lim = lim.Override(r.MemoryBytes, r.CPUs, set)
	if r.MemoryBytes > 0 {
		lim.SwapBytes = 0 // a trial forbids swap
	}
	fit := plan.Fit
	if r.Strict {
		fit = plan.Strict
	}
	p, opts, err := fit(plan.Input{Limits: lim, JDK: r.JDK, Goal: g, UserOptions: r.CommandOptions, Profile: r.Profile}, r.UserOptions)
	if err != nil {
		// Wrapped so experiments can tell a limit the planner refuses (a KO
		// that costs no trial) from a real error (errors.As *plan.RefusedError).
		return Resolved{}, fmt.Errorf("--jvm %s: %w", r.Mode, err)
	}
	return Resolved{Options: opts, Env: p.Env, Doubt: p.Doubt}, nil
}
