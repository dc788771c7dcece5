//go:build linux

package docker

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// oomKillCount reads the oom_kill line of a v1 memory cgroup's
// memory.oom_control: how many processes the OOM killer ended in it.
func oomKillCount(dir string) (int64, bool) {
	f, err := os.Open(dir + "/memory.oom_control")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "oom_kill "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// memoryCgroupOf is pid's memory cgroup path from the hierarchy's root (its
// /proc/<pid>/cgroup line), or "" if it cannot be read.
func memoryCgroupOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && strings.Contains(","+parts[1]+",", ",memory,") {
			return parts[2]
		}
	}
	return ""
}
