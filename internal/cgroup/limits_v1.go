//go:build linux

package cgroup

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// limDetectV1 reads the v1 controllers. Each controller is its own
// hierarchy, so memory, cpu and cpuset are walked separately.
func limDetectV1(h Hierarchy, l *Limits) {
	if dir := h.Dir("memory"); dir != "" {
		var memsw int64
		for _, d := range limAncestors(dir, h.Mounts["memory"]) {
			p := filepath.Join(d, "memory.limit_in_bytes")
			if s, ok := limRead(p, l); ok {
				l.MemoryBytes = limTighter(l.MemoryBytes, limBytes(s, p, l))
			}
			p = filepath.Join(d, "memory.memsw.limit_in_bytes")
			if s, ok := limRead(p, l); ok {
				memsw = limTighter(memsw, limBytes(s, p, l))
			}
		}
		// hierarchical_memory_limit already folds in every ancestor, and is
		// the only view of them when a container hides its parents.
		p := filepath.Join(dir, "memory.stat")
		if s, ok := limRead(p, l); ok {
			for _, line := range strings.Split(s, "\n") {
				if v, ok := strings.CutPrefix(line, "hierarchical_memory_limit "); ok {
					l.MemoryBytes = limTighter(l.MemoryBytes, limBytes(strings.TrimSpace(v), p, l))
				}
			}
		}
		if memsw > 0 && l.MemoryBytes > 0 && memsw >= l.MemoryBytes {
			l.SwapBytes = memsw - l.MemoryBytes
		}
	}
	if dir := h.Dir("cpu"); dir != "" {
		for i, d := range limAncestors(dir, h.Mounts["cpu"]) {
			q, okq := limRead(filepath.Join(d, "cpu.cfs_quota_us"), l)
			per, okp := limRead(filepath.Join(d, "cpu.cfs_period_us"), l)
			if !okq || !okp || q == "-1" {
				continue
			}
			cpus, err := limQuota(q, per)
			if err != nil {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %v", d, err))
				continue
			}
			if cpus > 0 && (l.CPUQuota == 0 || cpus < l.CPUQuota) {
				l.CPUQuota, l.CPUQuotaInherited = cpus, i > 0
			}
		}
	}
	if dir := h.Dir("cpuset"); dir != "" {
		// An empty cpuset.cpus means "inherit"; the nearest non-empty one applies.
		for _, d := range limAncestors(dir, h.Mounts["cpuset"]) {
			if limCPUSetFile(filepath.Join(d, "cpuset.effective_cpus"), l) ||
				limCPUSetFile(filepath.Join(d, "cpuset.cpus"), l) {
				break
			}
		}
	}
}

// limQuota turns a quota and a period (µs) into CPUs.
func limQuota(quota, period string) (float64, error) {
	q, err1 := strconv.ParseInt(quota, 10, 64)
	p, err2 := strconv.ParseInt(period, 10, 64)
	if err1 != nil || err2 != nil || p <= 0 {
		return 0, fmt.Errorf("bad CPU quota %q / period %q", limShort(quota), limShort(period))
	}
	if q <= 0 {
		return 0, nil
	}
	return float64(q) / float64(p), nil
}

// limCPUSetFile sets l.CPUSet from a cpuset list file; false when the file
// is missing, empty or garbled.
func limCPUSetFile(path string, l *Limits) bool {
	s, ok := limRead(path, l)
	if !ok {
		return false
	}
	cpus, err := ParseCPUList(s)
	if err != nil {
		l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %v", path, err))
		return false
	}
	l.CPUSet = cpus
	return true
}
