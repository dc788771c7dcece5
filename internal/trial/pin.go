//go:build linux

package trial

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// pinSelf moves every thread of jvmfit, the load generator's among them,
// onto cpus for the trial, and returns what puts them back. It changes
// only jvmfit's own affinity; threads made while pinned inherit the set,
// and the restore reaches them too. The app and the services are in
// cpusets of their own, which their cgroups set when they enter them.
func pinSelf(cpus string) (restore func(), err error) {
	list, err := cgroup.ParseCPUList(cpus)
	if err != nil {
		return nil, err
	}
	var orig unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		return nil, fmt.Errorf("cannot read jvmfit's CPU affinity: %v", err)
	}
	var want unix.CPUSet
	for _, c := range list {
		want.Set(c)
	}
	if err := setAll(&want); err != nil {
		setAll(&orig)
		return nil, fmt.Errorf("cannot pin jvmfit to CPU %s: %v", cpus, err)
	}
	return func() { setAll(&orig) }, nil
}

// setAll sets the affinity of every thread of this process. A thread the
// Go runtime starts while the pass runs may be cloned from one not yet
// set, and would keep the old affinity; so passes repeat until one finds
// every thread already set (a few at most: once all are set, new threads
// inherit the set).
func setAll(set *unix.CPUSet) error {
	var first error
	for pass := 0; pass < 10; pass++ {
		changed, err := setPass(set)
		if err != nil && first == nil {
			first = err
		}
		if !changed {
			break
		}
	}
	return first
}

// setPass sets every thread whose affinity is not set yet, and says
// whether it changed any.
func setPass(set *unix.CPUSet) (changed bool, err error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, err
	}
	var first error
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		var have unix.CPUSet
		if unix.SchedGetaffinity(tid, &have) == nil && have == *set {
			continue
		}
		changed = true
		// A thread that exited in between is no error.
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH && first == nil {
			first = err
		}
	}
	return changed, first
}
