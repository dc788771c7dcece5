package cgroup

import "math"

// Override is l with the limits a plan is made for in place of the
// detected ones (0, 0 and nil keep l's own): the one way the launcher's
// flags, a trial's jvmfit mode and tune's planner say which limits they
// plan for. The host grows to hold them, since a plan for a 4-CPU, 2 GiB
// container is made on whatever machine jvmfit runs on; swap is left as
// it is (a trial forbids it itself).
func (l Limits) Override(memoryBytes int64, cpus float64, cpuset []int) Limits {
	if memoryBytes > 0 {
		l.MemoryBytes, l.HostMemoryBytes = memoryBytes, max(memoryBytes, l.HostMemoryBytes)
	}
	if cpus > 0 {
		if cpuset == nil && cpus > l.EffectiveCPUs() {
			// "What will a 4-CPU pod get" is asked on a smaller machine:
			// this machine's cpuset does not bound the answer.
			l.CPUSet = nil
		}
		l.CPUQuota, l.CPUQuotaInherited = cpus, false
		l.HostCPUs = max(l.HostCPUs, int(math.Ceil(cpus)))
	}
	if cpuset != nil {
		l.CPUSet = cpuset
		l.HostCPUs = max(l.HostCPUs, len(cpuset))
	}
	return l
}
