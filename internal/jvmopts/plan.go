package jvmopts

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/plan"
)

// planned asks the planner for options fitting the trial's own limits (not
// jvmfit's), with the host's figures where the trial sets no limit.
func planned(r Request, goal string) ([]string, error) {
	g, err := plan.ParseGoal(goal)
	if err != nil {
		return nil, fmt.Errorf("--jvm jvmfit:%s: %v", goal, err)
	}
	lim, err := cgroup.Detect("/")
	if err != nil {
		return nil, fmt.Errorf("--jvm jvmfit: cannot read the host's limits: %v", err)
	}
	if r.MemoryBytes > 0 {
		lim.MemoryBytes, lim.SwapBytes = r.MemoryBytes, 0
	}
	if r.CPUs > 0 {
		lim.CPUQuota, lim.CPUQuotaInherited = r.CPUs, false
	}
	if r.CPUSet != "" {
		if lim.CPUSet, err = cgroup.ParseCPUList(r.CPUSet); err != nil {
			return nil, fmt.Errorf("--cpuset: %v", err)
		}
	}
	p, err := plan.Compute(plan.Input{Limits: lim, JDK: r.JDK, Goal: g})
	if err != nil {
		// Wrapped so experiments can tell a limit the planner refuses (a KO
		// that costs no trial) from a real error (errors.As *plan.RefusedError).
		return nil, fmt.Errorf("--jvm jvmfit: %w", err)
	}
	return append([]string{}, p.Options...), nil
}
