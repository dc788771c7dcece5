package probe

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// inactiveFile reads the inactive file pages of the cgroup whose memory
// directory is dir (v1: the memory controller's directory; v2: the group's).
// v1's memory.stat has both the group's own inactive_file and the
// hierarchical total_inactive_file; cAdvisor takes the total there, and v2
// has only inactive_file, which is already hierarchical.
func inactiveFile(dir string) (int64, error) {
	f, err := os.Open(filepath.Join(dir, "memory.stat"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var own, total int64 = -1, -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if !ok || (k != "inactive_file" && k != "total_inactive_file") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s/memory.stat: %s: %w", dir, k, err)
		}
		if k == "total_inactive_file" {
			total = n
		} else {
			own = n
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	switch {
	case total >= 0:
		return total, nil
	case own >= 0:
		return own, nil
	}
	return 0, fmt.Errorf("%s/memory.stat has no inactive_file", dir)
}

// WorkingSet is cAdvisor's container_memory_working_set_bytes: usage minus
// inactive file pages, never below zero.
func WorkingSet(usage, inactiveFile int64) int64 {
	if inactiveFile >= usage {
		return 0
	}
	return usage - inactiveFile
}
