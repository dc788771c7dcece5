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

// PidsWith are the processes whose command line holds marker, other than
// the jvmfit binary's own: a test marks the app it asks jvmfit to start
// (--jvm -Dmark, a jar's name), so jvmfit's arguments hold the marker too.
func PidsWith(marker string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); exe == bin && bin != "" {
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
