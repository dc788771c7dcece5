//go:build linux

package trial

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
)

func TestPlacementGivesTheAppTheFirstCPUsAndTheRestToTheSide(t *testing.T) {
	cases := []struct {
		host      []int
		cpus      float64
		app, side string
		ok        bool
	}{
		{[]int{0, 1}, 1, "0", "1", true},
		{[]int{0, 1}, 0.5, "0", "1", true},
		{[]int{0, 1}, 2, "", "", false}, // nothing left for the load generator
		{[]int{0, 1, 2, 3}, 2, "0-1", "2-3", true},
		{[]int{2, 3, 6}, 1.5, "2-3", "6", true},
		{[]int{0}, 1, "", "", false},
		{[]int{0, 1}, 0, "", "", false},
	}
	for _, c := range cases {
		a, s, ok := split(c.host, c.cpus)
		if ok != c.ok || cgroup.FormatCPUList(a) != c.app || cgroup.FormatCPUList(s) != c.side {
			t.Errorf("split(%v, %g) = %v %v %v, want %q %q %v", c.host, c.cpus, a, s, ok, c.app, c.side, c.ok)
		}
	}
}

func TestPlaceAppliesOnlyToASeparateHostApp(t *testing.T) {
	saved := hostLimits
	t.Cleanup(func() { hostLimits = saved })
	hostLimits = func() (cgroup.Limits, error) { return cgroup.Limits{HostCPUs: 2}, nil }
	sep := &app.App{Placement: app.PlacementSeparate}
	spec := Spec{CPUs: 1, MemoryBytes: 1 << 28}
	if err := place(&spec, sep); err != nil || spec.CPUSet != "0" || spec.SideCPUSet != "1" {
		t.Errorf("separate at 1 CPU of 2: cpuset %q side %q (%v), want 0 and 1", spec.CPUSet, spec.SideCPUSet, err)
	}
	for name, c := range map[string]struct {
		spec Spec
		a    *app.App
	}{
		"shared":    {Spec{CPUs: 1}, &app.App{}},
		"image":     {Spec{CPUs: 1}, &app.App{Placement: app.PlacementSeparate, Image: "x"}},
		"no-limits": {Spec{CPUs: 1, NoLimits: true}, sep},
		"cpuset":    {Spec{CPUs: 1, CPUSet: "1"}, sep},
		"all CPUs":  {Spec{CPUs: 2}, sep},
	} {
		s := c.spec
		if err := place(&s, c.a); err != nil || s.SideCPUSet != "" || s.CPUSet != c.spec.CPUSet {
			t.Errorf("%s: cpuset %q side %q, want nothing placed", name, s.CPUSet, s.SideCPUSet)
		}
	}
}

// allowed is every thread's Cpus_allowed_list, as the kernel holds it.
func allowed(t *testing.T) map[string]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Cpus_allowed_list:"); ok {
				out[strings.TrimSpace(v)] = true
			}
		}
	}
	return out
}

func TestPinSelfMovesEveryThreadAndRestores(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Fatal("needs 2 CPUs")
	}
	before := allowed(t)
	last := runtime.NumCPU() - 1
	want := cgroup.FormatCPUList([]int{last})
	restore, err := pinSelf(want)
	if err != nil {
		t.Fatal(err)
	}
	// A thread made while pinned inherits the set.
	done := make(chan struct{})
	go func() { runtime.LockOSThread(); <-done }()
	if got := allowed(t); len(got) != 1 || !got[want] {
		t.Errorf("pinned threads allow %v, want only %s", got, want)
	}
	restore()
	close(done)
	if got := allowed(t); len(got) != len(before) || got[want] && !before[want] {
		t.Errorf("after restore %v, want %v", got, before)
	}
}
