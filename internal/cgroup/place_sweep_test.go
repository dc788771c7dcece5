//go:build linux

package cgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Two jvmfits at once in the measured host's layout, and the leftovers of
// two dead ones (one in jvmfit.slice beside the user's cgroups, one in a
// systemd scope): a Sweep removes only the dead owners' groups, and the
// shared jvmfit.slice only once it is empty.
func TestPlaceSweepNewPlaces(t *testing.T) {
	root := layout(t, "/agent/a1", "/", map[string]cgFix{
		"/":         {allControllers, "cpuset cpu io memory hugetlb pids", "", true},
		"/agent":    {allControllers, "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	})
	k := &fakeKernel{}
	m := fixtureManager(t, root, k)
	mine, err := m.Create("t", Spec{MemoryBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// The other jvmfit is alive (a sleeping process stands for it).
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	m2 := fixtureManager(t, root, k)
	m2.pid = other.Process.Pid
	theirs, err := m2.Create("t", Spec{MemoryBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// Two dead ones: a tree in /agent/jvmfit.slice and a systemd scope.
	m3 := fixtureManager(t, root, k)
	m3.pid = grpDeadPid(t)
	if _, err := m3.Create("t", Spec{MemoryBytes: 64 << 20}); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(cgPath(root, "/agent/jvmfit.slice"), m3.baseName())
	scope := cgPath(root, "/jvmfit.slice/jvmfit-"+strconv.Itoa(grpDeadPid(t))+".scope")
	for _, d := range []string{filepath.Dir(scope), scope, filepath.Join(scope, leafName), filepath.Join(scope, "jvmfit-1"), filepath.Join(scope, "jvmfit-1", "t")} {
		if err := k.Mkdir(d); err != nil {
			t.Fatal(err)
		}
	}

	removed, err := m.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{dead: true, filepath.Join(dead, "t"): true, filepath.Dir(scope): true, scope: true,
		filepath.Join(scope, leafName): true, filepath.Join(scope, "jvmfit-1"): true, filepath.Join(scope, "jvmfit-1", "t"): true}
	for _, r := range removed {
		if !want[r] {
			t.Errorf("removed %s", r)
		}
		delete(want, r)
	}
	for w := range want {
		t.Errorf("kept %s", w)
	}
	for _, g := range []Group{mine, theirs} {
		if _, err := os.Stat(g.Path()); err != nil {
			t.Errorf("a live jvmfit's group went: %v", err)
		}
	}
	removeAll(t, mine)
	if _, err := os.Stat(theirs.Path()); err != nil {
		t.Errorf("removing my group took theirs: %v", err)
	}
	// The other jvmfit dies: its groups and the shared slice go.
	other.Process.Kill()
	other.Wait()
	if _, err := m.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cgPath(root, "/agent/jvmfit.slice")); !os.IsNotExist(err) {
		t.Errorf("jvmfit.slice left after the last owner died: %v", err)
	}
}
