//go:build linux

package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// groupFile reads a cgroup file of pid's group as the kernel holds it:
// v1 under the controller's hierarchy, v2 under the one tree.
func groupFile(t *testing.T, pid int, controller, file string) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(l, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == controller {
				return readTrim(t, filepath.Join("/sys/fs/cgroup", controller, parts[2], file))
			}
		}
	}
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			return readTrim(t, filepath.Join("/sys/fs/cgroup", p, file))
		}
	}
	t.Fatalf("pid %d has no %s group: %s", pid, controller, b)
	return ""
}

func readTrim(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// v2 says whether this host's trial groups are cgroup v2's.
func v2() bool {
	_, err := os.Stat("/sys/fs/cgroup/cgroup.controllers")
	_, v1 := os.Stat("/sys/fs/cgroup/memory")
	return err == nil && v1 != nil
}

// assertLimited reads the memory limit, CPU quota and cpuset back from
// the kernel's files of pid's group.
func assertLimited(t *testing.T, pid int, memory int64, quotaMicros int, cpuset string) {
	t.Helper()
	var mem, cpu string
	if v2() {
		mem = groupFile(t, pid, "memory", "memory.max")
		cpu = strings.Fields(groupFile(t, pid, "cpu", "cpu.max"))[0]
	} else {
		mem = groupFile(t, pid, "memory", "memory.limit_in_bytes")
		cpu = groupFile(t, pid, "cpu", "cpu.cfs_quota_us")
	}
	if mem != fmt.Sprint(memory) {
		t.Errorf("memory limit %s, want %d", mem, memory)
	}
	if cpu != fmt.Sprint(quotaMicros) {
		t.Errorf("CPU quota %s µs, want %d", cpu, quotaMicros)
	}
	if got := groupFile(t, pid, "cpuset", "cpuset.cpus"); got != cpuset {
		t.Errorf("cpuset %q, want %q", got, cpuset)
	}
}
