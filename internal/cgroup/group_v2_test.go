//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// grpV2Fixture is a pure v2 host where this process sits in /app.
func grpV2Fixture(t *testing.T, ownControllers string) (root, own string) {
	return grpV2FixtureRoot(t, "cpuset cpu io memory pids", ownControllers)
}

func grpV2FixtureRoot(t *testing.T, rootControllers, ownControllers string) (root, own string) {
	t.Helper()
	root = writeFixture(t, map[string]string{
		"proc/self/cgroup":                         "0::/app\n",
		"proc/self/mountinfo":                      "40 31 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/cgroup.controllers":         rootControllers + "\n",
		"sys/fs/cgroup/app/cgroup.type":            "domain\n",
		"sys/fs/cgroup/app/cgroup.controllers":     ownControllers + "\n",
		"sys/fs/cgroup/app/cgroup.subtree_control": "",
		"sys/fs/cgroup/app/cgroup.procs":           "4242\n",
		"sys/fs/cgroup/app/cpuset.cpus.effective":  "0-3\n",
	})
	return root, filepath.Join(root, "sys/fs/cgroup/app")
}

// grpV2Kernel plays the kernel: a new directory gets the interface files
// of the controllers its parent enabled. swap=false mimics a kernel
// without swap accounting (no memory.swap.max).
func grpV2Kernel(swap bool) func(dir string) error {
	return func(dir string) error {
		enabled, _ := grpReadString(filepath.Dir(dir), "cgroup.subtree_control")
		on := map[string]bool{}
		for _, c := range strings.Fields(enabled) {
			on[strings.TrimPrefix(c, "+")] = true
		}
		files := map[string]string{
			"cgroup.controllers":     strings.ReplaceAll(enabled, "+", ""),
			"cgroup.subtree_control": "",
			"cgroup.procs":           "",
			"cgroup.events":          "populated 0\n",
		}
		if on["memory"] {
			files["memory.max"] = "max\n"
			files["memory.current"] = "0\n"
			files["memory.stat"] = "anon 0\nfile 0\n"
			files["memory.events"] = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n"
			files["memory.oom.group"] = "0\n"
			if swap {
				files["memory.swap.max"] = "max\n"
				files["memory.swap.current"] = "0\n"
			}
		}
		if on["cpu"] {
			files["cpu.max"] = "max 100000\n"
			files["cpu.stat"] = "usage_usec 0\nuser_usec 0\nsystem_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n"
		}
		if on["pids"] {
			files["pids.max"] = "max\n"
			files["pids.current"] = "0\n"
		}
		if on["cpuset"] {
			files["cpuset.cpus"] = "\n"
			files["cpuset.cpus.effective"] = "0-3\n"
		}
		for f, c := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(c), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// grpV2Manager is a Manager on grpV2Fixture: /app holds a process, so the
// groups go to the root's jvmfit.slice (the returned directory).
func grpV2Manager(t *testing.T, swap bool) (*Manager, string) {
	t.Helper()
	root, own := grpV2Fixture(t, "cpuset cpu io memory pids")
	m := fixtureManager(t, root, &fakeKernel{swap: swap})
	return m, filepath.Join(filepath.Dir(own), sliceName)
}

// fixtureManager is NewManager on a fixture root with a fixture kernel.
func fixtureManager(t *testing.T, root string, k *fakeKernel) *Manager {
	t.Helper()
	m, err := NewManager(root)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version() != 2 {
		t.Fatalf("fixture read as v%d", m.Version())
	}
	k.mount = m.h.Mounts[""]
	m.k = k
	return m
}

func TestGroupV2WritesLimits(t *testing.T) {
	m, own := grpV2Manager(t, true)
	g, err := m.Create("t1", Spec{MemoryBytes: 256 << 20, CPUs: 1.5, CPUSet: "0-1", Pids: 512})
	if err != nil {
		t.Fatal(err)
	}
	dir := g.Path()
	if want := filepath.Join(own, m.baseName(), "t1"); dir != want {
		t.Fatalf("group at %s, want %s", dir, want)
	}
	want := map[string]string{
		"memory.max":       "268435456",
		"memory.swap.max":  "0",
		"cpu.max":          "150000 100000",
		"cpuset.cpus":      "0-1",
		"memory.oom.group": "1",
		"pids.max":         "512",
	}
	for f, w := range want {
		if got := grpRead(t, dir, f); got != w {
			t.Errorf("%s = %q, want %q", f, got, w)
		}
	}
	// Controllers must be handed down at every level.
	for _, d := range []string{filepath.Dir(own), own, filepath.Join(own, m.baseName())} {
		got := grpRead(t, d, "cgroup.subtree_control")
		for _, c := range []string{"memory", "cpu", "cpuset", "pids"} {
			if !strings.Contains(got, c) {
				t.Errorf("%s/cgroup.subtree_control = %q, lacks %s", d, got, c)
			}
		}
	}
	if err := g.AddProc(777); err != nil {
		t.Fatal(err)
	}
	if got := grpRead(t, dir, "cgroup.procs"); got != "777" {
		t.Errorf("cgroup.procs = %q", got)
	}
	// The fixture's "process" cannot really be killed: empty it by hand.
	os.WriteFile(filepath.Join(dir, "cgroup.procs"), nil, 0o644)
	if err := g.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", own, err)
	}
}

func TestGroupV2NoSwapAccountingNoLimits(t *testing.T) {
	m, _ := grpV2Manager(t, false)
	g, err := m.Create("t2", Spec{MemoryBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	if _, err := os.Stat(filepath.Join(g.Path(), "memory.swap.max")); !os.IsNotExist(err) {
		t.Error("memory.swap.max created on a kernel without swap accounting")
	}
	if got := grpRead(t, g.Path(), "cpu.max"); got != "max 100000" {
		t.Errorf("cpu.max = %q with no CPU limit asked", got)
	}
	if got := grpRead(t, g.Path(), "cpuset.cpus"); got != "" {
		t.Errorf("cpuset.cpus = %q with no cpuset asked", got)
	}
}

func TestGroupV2Stats(t *testing.T) {
	m, _ := grpV2Manager(t, true)
	g, err := m.Create("t3", Spec{MemoryBytes: 128 << 20, CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	dir := g.Path()
	set := func(f, c string) {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set("memory.current", "90000000\n")
	set("memory.stat", "anon 70000000\nfile 15000000\nkernel 100\n")
	set("memory.events", "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n")
	set("cpu.stat", "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\nnr_periods 40\nnr_throttled 7\nthrottled_usec 350000\n")
	set("cgroup.procs", "11\n12\n")
	st, err := g.Stats()
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Usage: 90000000, Peak: 90000000, Limit: 128 << 20, RSS: 70000000, Cache: 15000000,
		CPUUsage: 2500 * time.Millisecond, NrPeriods: 40, NrThrottled: 7, Throttled: 350 * time.Millisecond,
		OOMKills: 1, Procs: 2}
	if st != want {
		t.Fatalf("stats\n got %+v\nwant %+v", st, want)
	}
	// No memory.peak file: the peak is the highest usage jvmfit saw.
	set("memory.current", "40000000\n")
	if st, _ = g.Stats(); st.Peak != 90000000 || st.Usage != 40000000 {
		t.Errorf("tracked peak %d usage %d", st.Peak, st.Usage)
	}
	// With memory.peak the kernel's figure wins when higher.
	set("memory.peak", "120000000\n")
	if st, _ = g.Stats(); st.Peak != 120000000 {
		t.Errorf("kernel peak ignored: %d", st.Peak)
	}
	set("cgroup.procs", "")
}

func TestGroupV2MissingControllers(t *testing.T) {
	// Like this machine's hybrid v2 mount: the tree exists, no controllers.
	root, _ := grpV2FixtureRoot(t, "io pids", "io pids")
	m := fixtureManager(t, root, &fakeKernel{})
	before := snapshot(t, root)
	_, err := m.Create("t", Spec{MemoryBytes: 64 << 20})
	if err == nil || !strings.Contains(err.Error(), "offers \"io pids\"") || !strings.Contains(err.Error(), "--no-limits") {
		t.Fatalf("got %v", err)
	}
	if after := snapshot(t, root); after != before {
		t.Errorf("a refusal changed the tree:\n%s", after)
	}
}

func TestGroupNewManagerNoCgroups(t *testing.T) {
	_, err := NewManager(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "--no-limits") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("want one line advising --no-limits, got %v", err)
	}
}
