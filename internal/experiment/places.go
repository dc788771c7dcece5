package experiment

import (
	"fmt"
	"math"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// places are the CPUs of this machine cut into one place per trial that
// runs side by side here (--parallel N on the local backend): each place
// is the app's CPUs (its limit, rounded up), which its cgroup's cpuset
// gets (Spec.Placement), and one CPU more kept free for its load
// generator. The load generator runs in jvmfit's own process, whose
// threads cannot be pinned per trial; keeping that CPU out of every
// app's cpuset is what keeps the apps off the CPUs their load needs. The
// places are disjoint, so no trial's app runs on another's CPUs.
type places struct {
	free chan place
}

// place is one trial's CPUs.
type place struct {
	app  []int
	load int
}

func (p place) cpuset() string { return cgroup.FormatCPUList(p.app) }

// newPlaces cuts cpus (the CPUs this process may use, in order) into n
// places for trials of r's size, or says in one line why it cannot.
func newPlaces(r Room, n int, cpus []int) (*places, error) {
	per := int(math.Ceil(r.CPUs)) + 1
	if n*per > len(cpus) {
		return nil, fmt.Errorf("--parallel %d needs %d CPUs on this machine (%d trials × (%g for the app + 1 for its load)), and this process may use %d (%s): give --parallel %d or less, or --backend k8s",
			n, n*per, n, r.CPUs, len(cpus), cgroup.FormatCPUList(cpus), max(1, len(cpus)/per))
	}
	ps := &places{free: make(chan place, n)}
	for i := 0; i < n; i++ {
		c := cpus[i*per : (i+1)*per]
		ps.free <- place{app: append([]int(nil), c[:per-1]...), load: c[per-1]}
	}
	return ps, nil
}

// take waits for a free place; give returns it.
func (ps *places) take() place  { return <-ps.free }
func (ps *places) give(p place) { ps.free <- p }
