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

// readPeak is the cgroup's peak memory: v1 memory.max_usage_in_bytes; v2
// memory.peak (5.19+), else memory.current, which sampling keeps the
// highest of.
func readPeak(dir string, v2 bool) (int64, error) {
	if !v2 {
		return readInt(dir + "/memory.max_usage_in_bytes")
	}
	if v, err := readInt(dir + "/memory.peak"); err == nil {
		return v, nil
	}
	return readInt(dir + "/memory.current")
}

// oomKillCount reads the oom_kill line of a v1 memory cgroup's
// memory.oom_control or a v2 cgroup's memory.events: how many processes
// the OOM killer ended in it.
func oomKillCount(dir string, v2 bool) (int64, bool) {
	file := "/memory.oom_control"
	if v2 {
		file = "/memory.events"
	}
	f, err := os.Open(dir + file)
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
// /proc/<pid>/cgroup line: the memory one on v1, the unified "0::" one on
// a v2-only host), or "" if it cannot be read.
func memoryCgroupOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return ""
	}
	unified := ""
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if strings.Contains(","+parts[1]+",", ",memory,") {
			return parts[2]
		}
		if parts[0] == "0" && parts[1] == "" {
			unified = parts[2]
		}
	}
	return unified
}
