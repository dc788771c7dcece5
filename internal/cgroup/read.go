package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The readers of cgroup interface files, v1 and v2, for this package and
// for the others that read a group's files themselves (the sandbox's stall
// watch, the Kubernetes agent reading a pod's groups). They take a
// directory, so that tests read fixture trees.

// ReadInt reads a file of one integer, such as memory.usage_in_bytes;
// v2's "max" (no limit) reads as -1.
func ReadInt(dir, file string) (int64, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, file), err)
	}
	return n, nil
}

// ReadKeyed parses a file of "key value" lines (memory.stat, cpu.stat,
// memory.events, memory.oom_control). Lines of another shape, or whose
// value is not an integer, are left out.
func ReadKeyed(dir, file string) (map[string]int64, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		if v, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			out[f[0]] = v
		}
	}
	return out, nil
}
