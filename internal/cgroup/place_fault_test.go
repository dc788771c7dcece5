//go:build linux

package cgroup

import (
	"strings"
	"syscall"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// The faults of issue 20: each is one line naming it, a *PlaceError (the
// CLI's exit 2), and nothing created or changed.
func TestPlaceFaults(t *testing.T) {
	host := map[string]cgFix{
		"/":         {allControllers, "cpuset cpu io memory hugetlb pids", "", true},
		"/agent":    {allControllers, "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	}
	noCpuset := map[string]cgFix{
		"/":         {"cpu io memory pids", "cpu io memory pids", "", true},
		"/agent":    {"cpu io memory pids", "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	}
	for _, c := range []struct {
		name   string
		dirs   map[string]cgFix
		k      func(root string) *fakeKernel
		spec   Spec
		naming []string
	}{
		{"read-only cgroupfs", host, func(string) *fakeKernel { return &fakeKernel{readOnly: true} },
			Spec{MemoryBytes: 64 << 20}, []string{"read-only", "remount,rw", "/agent/cgroup.subtree_control"}},
		{"unwritable parent", host, func(root string) *fakeKernel {
			return &fakeKernel{deny: map[string]bool{cgPath(root, "/agent"): true}}
		}, Spec{MemoryBytes: 64 << 20}, []string{"permission denied", "sys/fs/cgroup/agent", "run jvmfit as root"}},
		{"no cpuset in the kernel", noCpuset, func(string) *fakeKernel { return &fakeKernel{} },
			Spec{MemoryBytes: 64 << 20, CPUSet: "0"}, []string{`cpuset "0"`, "no cpuset controller", "drop --cpuset"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := layout(t, "/agent/a1", "/", c.dirs)
			m := fixtureManager(t, root, c.k(root))
			before := snapshot(t, root)
			g, err := m.Create("t", c.spec)
			if err == nil {
				g.Remove()
				t.Fatal("accepted")
			}
			if _, ok := err.(*PlaceError); !ok {
				t.Errorf("%T %v, want a *PlaceError (exit 2)", err, err)
			}
			for _, w := range c.naming {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("not one line: %q", err)
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("the tree changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// Without --cpuset a kernel lacking cpuset is no fault: the groups get
// what there is.
func TestPlaceNoCpusetWithoutAsking(t *testing.T) {
	root := layout(t, "/agent/a1", "/", map[string]cgFix{
		"/":         {"cpu io memory pids", "", "", true},
		"/agent":    {"cpu io memory pids", "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	})
	m := fixtureManager(t, root, &fakeKernel{})
	g, err := m.Create("t", Spec{MemoryBytes: 64 << 20, CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	if m.place.Has("cpuset") || !m.place.Has("pids") {
		t.Errorf("controllers %v", m.place.Controllers)
	}
}

// A really read-only filesystem under the real kernel interface (a
// fixture tree bind-mounted read-only): the same one line, nothing made.
func TestPlaceReadOnlyMountReal(t *testing.T) {
	prereq.Root(t)
	src := layout(t, "/agent/a1", "/", map[string]cgFix{
		"/":         {allControllers, "cpuset cpu io memory hugetlb pids", "", true},
		"/agent":    {allControllers, "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	})
	root := t.TempDir()
	if err := syscall.Mount(src, root, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		t.Fatalf("bind mount: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(root, syscall.MNT_DETACH) })
	if err := syscall.Mount("", root, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	m, err := NewManager(root)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	_, err = m.Create("t", Spec{MemoryBytes: 64 << 20})
	if _, ok := err.(*PlaceError); !ok || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "agent/cgroup.subtree_control") {
		t.Fatalf("got %T %v", err, err)
	}
	if snapshot(t, root) != before {
		t.Error("the tree changed")
	}
}
