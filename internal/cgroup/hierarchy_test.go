//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFixture(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestReadHierarchyV1Hybrid(t *testing.T) {
	root := writeFixture(t, map[string]string{
		"proc/self/cgroup": "4:memory:/process_api/abc\n3:cpuset:/\n1:cpu,cpuacct:/k8s/pod1\n0::/\n",
		"proc/self/mountinfo": "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n" +
			"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n" +
			"34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n" +
			"35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n" +
			"40 31 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
	})
	h, err := ReadHierarchy(root)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != 1 {
		t.Fatalf("version %d, want 1", h.Version)
	}
	want := map[string]string{
		"memory":  "/sys/fs/cgroup/memory/process_api/abc",
		"cpu":     "/sys/fs/cgroup/cpu,cpuacct/k8s/pod1",
		"cpuacct": "/sys/fs/cgroup/cpu,cpuacct/k8s/pod1",
		"cpuset":  "/sys/fs/cgroup/cpuset",
	}
	for c, w := range want {
		if got := h.Dir(c); got != filepath.Join(root, w) {
			t.Errorf("%s: %s, want %s", c, got, w)
		}
	}
}

func TestReadHierarchyV2NamespacedRoot(t *testing.T) {
	root := writeFixture(t, map[string]string{
		"proc/self/cgroup":                 "0::/pod/app\n",
		"proc/self/mountinfo":              "40 31 0:37 /pod /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/cgroup.controllers": "cpuset cpu memory pids\n",
	})
	h, err := ReadHierarchy(root)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != 2 || h.Dir("memory") != filepath.Join(root, "/sys/fs/cgroup/app") {
		t.Fatalf("got %+v", h)
	}
}

func TestReadHierarchyErrors(t *testing.T) {
	if _, err := ReadHierarchy(t.TempDir()); err == nil {
		t.Fatal("missing /proc accepted")
	}
	root := writeFixture(t, map[string]string{
		"proc/self/cgroup":    "garbage\n",
		"proc/self/mountinfo": "",
	})
	if _, err := ReadHierarchy(root); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestReadHierarchyThisMachine(t *testing.T) {
	h, err := ReadHierarchy("/")
	if err != nil {
		t.Skipf("no cgroups here: %v", err)
	}
	if h.Dir("memory") == "" {
		t.Fatalf("no memory controller found: %+v", h)
	}
	if _, err := os.Stat(filepath.Join(h.Dir("memory"), "cgroup.procs")); err != nil {
		t.Fatalf("own memory cgroup not found: %v", err)
	}
}
