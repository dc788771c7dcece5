//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// grpV1Kernel fills a new v1 directory with the files of its hierarchy,
// told apart by the mount directory name.
func grpV1Kernel(dir string) error {
	files := map[string]string{"cgroup.procs": "", "tasks": ""}
	switch {
	case strings.Contains(dir, "/memory/"):
		files["memory.limit_in_bytes"] = "9223372036854771712\n"
		files["memory.memsw.limit_in_bytes"] = "9223372036854771712\n"
		files["memory.swappiness"] = "60\n"
	case strings.Contains(dir, "/cpu,cpuacct/"):
		files["cpu.cfs_period_us"] = "100000\n"
		files["cpu.cfs_quota_us"] = "-1\n"
		files["cpuacct.usage"] = "0\n"
	case strings.Contains(dir, "/cpuset/"):
		files["cpuset.cpus"] = "\n"
		files["cpuset.mems"] = "\n"
	}
	for f, c := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// A host where cpu and cpuacct share one hierarchy: the group gets one
// directory there, not two, and the cpuset inherits cpus and mems.
func TestGroupV1FixtureJoinedCPU(t *testing.T) {
	root := writeFixture(t, map[string]string{
		"proc/self/cgroup": "4:memory:/user\n3:cpuset:/\n1:cpu,cpuacct:/user\n0::/\n",
		"proc/self/mountinfo": "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n" +
			"34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n" +
			"35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
		"sys/fs/cgroup/memory/user/cgroup.procs":      "1\n",
		"sys/fs/cgroup/cpu,cpuacct/user/cgroup.procs": "1\n",
		"sys/fs/cgroup/cpuset/cpuset.cpus":            "0-7\n",
		"sys/fs/cgroup/cpuset/cpuset.mems":            "0\n",
	})
	m, err := NewManager(root)
	if err != nil {
		t.Fatal(err)
	}
	m.k = popKernel{grpV1Kernel}
	g, err := m.Create("t", Spec{MemoryBytes: 100 << 20, CPUs: 2.25})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Paths()); n != 3 {
		t.Fatalf("%d directories %v, want memory, cpu,cpuacct and cpuset", n, g.Paths())
	}
	mem := g.Path()
	for f, w := range map[string]string{"memory.limit_in_bytes": "104857600", "memory.memsw.limit_in_bytes": "104857600", "memory.swappiness": "0"} {
		if got := grpRead(t, mem, f); got != w {
			t.Errorf("%s = %s, want %s", f, got, w)
		}
	}
	cpu := filepath.Join(root, "sys/fs/cgroup/cpu,cpuacct/user", m.baseName(), "t")
	if got := grpRead(t, cpu, "cpu.cfs_quota_us"); got != "225000" {
		t.Errorf("quota %s, want 225000", got)
	}
	cs := filepath.Join(root, "sys/fs/cgroup/cpuset", m.baseName(), "t")
	if c, ms := grpRead(t, cs, "cpuset.cpus"), grpRead(t, cs, "cpuset.mems"); c != "0-7" || ms != "0" {
		t.Errorf("cpuset %q mems %q, want the parent's 0-7 and 0", c, ms)
	}
	if err := g.AddProc(55); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.Paths() {
		if got := grpRead(t, d, "cgroup.procs"); got != "55" {
			t.Errorf("%s/cgroup.procs = %q", d, got)
		}
		os.WriteFile(filepath.Join(d, "cgroup.procs"), nil, 0o644)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.Paths() {
		if _, err := os.Stat(filepath.Dir(d)); !os.IsNotExist(err) {
			t.Errorf("%s left", filepath.Dir(d))
		}
	}
}
