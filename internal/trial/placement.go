package trial

import (
	"fmt"
	"math"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// Placement keeps the app's CPUs apart from the load generator's and the
// services' (placement: separate, docs/services.md). At a p99 of a
// millisecond, a load generator or an upstream that shares the app's CPU
// adds its own run-queue wait to every request; on CPUs of their own the
// latency measured is the app's.
//
// The rule, over the CPUs jvmfit may use (its affinity and cpuset):
//
//	the app gets the first ceil(--cpus) of them (its cpuset; the quota
//	stays --cpus); the load generator and every service share the rest.
//	With no CPU left for them, or no --cpus, or --no-limits, or a
//	--cpuset given, nothing is placed and all share.
//
// On a 2-core host at --cpus 1: the app on CPU 0, jvmfit and the
// services on CPU 1.
func place(spec *Spec, a *app.App) error {
	if a.Placement != app.PlacementSeparate || a.Image != "" || spec.NoLimits || spec.CPUs <= 0 {
		return nil
	}
	if spec.CPUSet != "" {
		// The caller placed the app (a resumed spec, or --cpuset): the
		// side set, if any, came with it.
		return nil
	}
	l, err := hostLimits()
	if err != nil {
		return nil
	}
	appSet, side, ok := split(hostCPUs(l), spec.CPUs)
	if !ok {
		return nil
	}
	spec.CPUSet, spec.SideCPUSet = cgroup.FormatCPUList(appSet), cgroup.FormatCPUList(side)
	return nil
}

// hostCPUs lists the CPUs jvmfit may run on.
func hostCPUs(l cgroup.Limits) []int {
	if len(l.CPUSet) > 0 {
		return l.CPUSet
	}
	cpus := make([]int, l.HostCPUs)
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}

// split gives the app the first ceil(cpus) of host and the rest to the
// side; ok is false when no CPU would be left for the side.
func split(host []int, cpus float64) (appSet, side []int, ok bool) {
	n := int(math.Ceil(cpus - 1e-9))
	if n < 1 || len(host) < n+1 {
		return nil, nil, false
	}
	return append([]int(nil), host[:n]...), append([]int(nil), host[n:]...), true
}

// placementText names the placement in a trial's first line.
func placementText(s Spec) string {
	if s.SideCPUSet == "" {
		return ""
	}
	return fmt.Sprintf("; load generator and services on CPU %s", s.SideCPUSet)
}
