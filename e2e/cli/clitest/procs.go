package clitest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ScanCRLF splits on \n and \r, so progress lines count as lines.
func ScanCRLF(data []byte, atEOF bool) (int, []byte, error) {
	for i, b := range data {
		if b == '\n' || b == '\r' {
			return i + 1, data[:i], nil
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// PidsWith are the processes whose command line holds marker.
func PidsWith(marker string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			out = append(out, pid)
		}
	}
	return out
}

// OwnMemoryCgroup is the test process's v1 memory cgroup directory.
func OwnMemoryCgroup(t *testing.T) string {
	b, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(b), "\n") {
		p := strings.SplitN(line, ":", 3)
		if len(p) == 3 && p[1] == "memory" {
			return filepath.Join("/sys/fs/cgroup/memory", p[2])
		}
	}
	t.Skip("no v1 memory cgroup")
	return ""
}
