package experiment

import "golang.org/x/sys/unix"

// allowedCPUs are the CPUs this process may run on (its affinity, which
// its cpuset bounds), in order; nil when the kernel does not say.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var out []int
	for c := 0; c < len(set)*64 && len(out) < set.Count(); c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}
