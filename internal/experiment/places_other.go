//go:build !linux

package experiment

import "runtime"

// allowedCPUs: without the kernel's affinity, the first NumCPU CPUs.
func allowedCPUs() []int {
	out := make([]int, runtime.NumCPU())
	for i := range out {
		out[i] = i
	}
	return out
}
