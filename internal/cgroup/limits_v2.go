//go:build linux

package cgroup

import (
	"fmt"
	"path/filepath"
	"strings"
)

// limDetectV2 reads the unified hierarchy, taking the tightest limit along
// the path from the process's cgroup up to the mount root.
func limDetectV2(h Hierarchy, l *Limits) {
	dir := h.Dir("")
	if dir == "" {
		return
	}
	var swap int64 = -1
	for i, d := range limAncestors(dir, h.Mounts[""]) {
		p := filepath.Join(d, "memory.max")
		if s, ok := limRead(p, l); ok {
			l.MemoryBytes = limTighter(l.MemoryBytes, limBytes(s, p, l))
		}
		p = filepath.Join(d, "memory.swap.max")
		if s, ok := limRead(p, l); ok && s != "max" {
			if v := limBytes(s, p, l); swap < 0 || v < swap {
				swap = v
			}
		}
		p = filepath.Join(d, "cpu.max")
		if s, ok := limRead(p, l); ok {
			f := strings.Fields(s)
			if len(f) == 0 || f[0] == "max" {
				continue
			}
			per := "100000"
			if len(f) > 1 {
				per = f[1]
			}
			cpus, err := limQuota(f[0], per)
			if err != nil {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %v", p, err))
				continue
			}
			if cpus > 0 && (l.CPUQuota == 0 || cpus < l.CPUQuota) {
				l.CPUQuota, l.CPUQuotaInherited = cpus, i > 0
			}
		}
	}
	l.SwapBytes = swap
	// cpuset.cpus.effective already accounts for every ancestor.
	for _, d := range limAncestors(dir, h.Mounts[""]) {
		if limCPUSetFile(filepath.Join(d, "cpuset.cpus.effective"), l) ||
			limCPUSetFile(filepath.Join(d, "cpuset.cpus"), l) {
			break
		}
	}
}
