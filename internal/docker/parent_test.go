//go:build linux

package docker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// --cgroup-parent for both cgroup drivers and both versions: a path below
// jvmfit's own sub-tree for cgroupfs, a slice name for systemd; and the
// container's cgroup directory each engine gets under it.
func TestTreeCgroupParentPerDriver(t *testing.T) {
	cases := []struct {
		name                 string
		version              int
		mount, base, driver  string
		parent, dockerDir    string
		podmanDir, holder    string
		createArgsContaining string
	}{
		{"v1 cgroupfs", 1, "/sys/fs/cgroup/memory", "/sys/fs/cgroup/memory/user/jvmfit-7", DriverCgroupfs,
			"/user/jvmfit-7/docker", "/sys/fs/cgroup/memory/user/jvmfit-7/docker/abc",
			"/sys/fs/cgroup/memory/user/jvmfit-7/docker/libpod-abc", "/user", " --cgroup-parent /user/jvmfit-7/docker "},
		{"v2 cgroupfs at an ancestor", 2, "/sys/fs/cgroup", "/sys/fs/cgroup/agent/jvmfit.slice/jvmfit-7", DriverCgroupfs,
			"/agent/jvmfit.slice/jvmfit-7/docker", "/sys/fs/cgroup/agent/jvmfit.slice/jvmfit-7/docker/abc",
			"/sys/fs/cgroup/agent/jvmfit.slice/jvmfit-7/docker/libpod-abc", "/agent/jvmfit.slice", " --cgroup-parent /agent/jvmfit.slice/jvmfit-7/docker "},
		{"v2 systemd", 2, "/sys/fs/cgroup", "", DriverSystemd,
			"jvmfit-7.slice", "/sys/fs/cgroup/jvmfit.slice/jvmfit-7.slice/docker-abc.scope",
			"/sys/fs/cgroup/jvmfit.slice/jvmfit-7.slice/libpod-abc.scope", "/jvmfit.slice", " --cgroup-parent jvmfit-7.slice "},
		{"v1 systemd", 1, "/sys/fs/cgroup/memory", "", DriverSystemd,
			"jvmfit-7.slice", "/sys/fs/cgroup/memory/jvmfit.slice/jvmfit-7.slice/docker-abc.scope",
			"/sys/fs/cgroup/memory/jvmfit.slice/jvmfit-7.slice/libpod-abc.scope", "/jvmfit.slice", " --cgroup-parent jvmfit-7.slice "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := newTree(c.version, c.mount, c.base, c.driver, 7)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Parent != c.parent {
				t.Errorf("--cgroup-parent %q, want %q", tr.Parent, c.parent)
			}
			if got := tr.Dir(Default().cgroupName("abc", c.driver)); got != c.dockerDir {
				t.Errorf("docker container cgroup %s, want %s", got, c.dockerDir)
			}
			if got := tr.Dir((Engine{Bin: "podman"}).cgroupName("abc", c.driver)); got != c.podmanDir {
				t.Errorf("podman container cgroup %s, want %s", got, c.podmanDir)
			}
			if got := tr.holder(); got != c.holder {
				t.Errorf("sweep looks in %s, want %s", got, c.holder)
			}
			a, err := createArgs(Launch{Image: "img", MemoryBytes: 64 << 20}, "n", tr.Parent, 7)
			if err != nil {
				t.Fatal(err)
			}
			if got := " " + strings.Join(a, " ") + " "; !strings.Contains(got, c.createArgsContaining) {
				t.Errorf("create args %q lack %q", got, c.createArgsContaining)
			}
		})
	}
	if _, err := newTree(2, "/sys/fs/cgroup", "/elsewhere/jvmfit-7", DriverCgroupfs, 7); err == nil {
		t.Error("a base outside the mount accepted")
	}
	if _, err := newTree(2, "/sys/fs/cgroup", "", "none", 7); err == nil || !strings.Contains(err.Error(), `"none"`) {
		t.Errorf("an unknown driver: %v", err)
	}
}

func TestSlicePath(t *testing.T) {
	for in, want := range map[string]string{
		"jvmfit-42.slice": "/jvmfit.slice/jvmfit-42.slice",
		"a-b-c.slice":     "/a.slice/a-b.slice/a-b-c.slice",
		"machine.slice":   "/machine.slice",
	} {
		if got := slicePath(in); got != want {
			t.Errorf("slicePath(%q) = %s, want %s", in, got, want)
		}
	}
}

// On v2 the sweep finds a dead jvmfit's container sub-tree in the place's
// jvmfit.slice (cgroupfs) or systemd's jvmfit.slice (the systemd driver),
// removes only it, and the shared jvmfit.slice once it is empty. A plain
// directory tree stands for the cgroupfs: rmdir is what both take.
func TestTreeSweepV2(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid, self := dead.Process.Pid, os.Getpid()
	for _, driver := range []string{DriverCgroupfs, DriverSystemd} {
		t.Run(driver, func(t *testing.T) {
			mount := t.TempDir()
			base := filepath.Join(mount, "agent/jvmfit.slice/jvmfit-"+strconv.Itoa(self))
			tr, err := newTree(2, mount, base, driver, self)
			if err != nil {
				t.Fatal(err)
			}
			sub := func(p int) string { return filepath.Join(mount, tr.holder(), tr.entry(p)) }
			for _, p := range []int{pid, self} {
				d := sub(p)
				if driver == DriverCgroupfs {
					d = filepath.Join(d, "docker")
				}
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if got := tr.deadPids(self); len(got) != 1 || got[0] != pid {
				t.Fatalf("dead pids %v, want [%d]", got, pid)
			}
			tr.removeDirs(pid)
			if _, err := os.Stat(sub(pid)); !os.IsNotExist(err) {
				t.Errorf("dead sub-tree kept: %v", err)
			}
			if _, err := os.Stat(sub(self)); err != nil {
				t.Errorf("live sub-tree removed: %v", err)
			}
			tr.removeDirs(self)
			if _, err := os.Stat(filepath.Join(mount, tr.holder())); !os.IsNotExist(err) {
				t.Errorf("empty jvmfit.slice kept: %v", err)
			}
		})
	}
}
