//go:build linux

package cgroup

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Limits is what a container gives a process: memory, CPU quota and cpuset,
// with the host's own figures as the fallback when a limit is absent.
type Limits struct {
	// Version is 1 or 2 (cgroup version), 0 when built by hand (planning).
	Version int
	// MemoryBytes is the tightest memory limit on the process's cgroup or
	// any ancestor; 0 means unlimited.
	MemoryBytes int64
	// HostMemoryBytes is MemTotal from /proc/meminfo.
	HostMemoryBytes int64
	// SwapBytes is how much swap the cgroup may use on top of MemoryBytes
	// (v1 memsw − memory, v2 memory.swap.max); -1 unlimited or unknown.
	SwapBytes int64
	// CPUQuota is quota/period in CPUs (1.5 = one and a half); 0 unlimited.
	CPUQuota float64
	// CPUQuotaInherited is true when the quota comes from an ancestor
	// cgroup, which JVMs before 23 do not look at on cgroup v1.
	CPUQuotaInherited bool
	// CPUSet lists the CPUs the process may run on; nil means all.
	CPUSet []int
	// HostCPUs is the number of CPUs the scheduler lets the process use
	// (Cpus_allowed_list), or the machine's count when that is unknown.
	HostCPUs int
	// Warnings name files that were present but unreadable or garbled;
	// each such limit is treated as absent.
	Warnings []string
}

// EffectiveCPUs is the CPU capacity the process can use: the quota, the
// cpuset size and the host count, whichever is smallest. It may be
// fractional (a 1.5-CPU quota).
func (l Limits) EffectiveCPUs() float64 {
	n := float64(l.HostCPUs)
	if n <= 0 {
		n = float64(runtime.NumCPU())
	}
	if l.CPUSet != nil && len(l.CPUSet) > 0 && float64(len(l.CPUSet)) < n {
		n = float64(len(l.CPUSet))
	}
	if l.CPUQuota > 0 && l.CPUQuota < n {
		n = l.CPUQuota
	}
	return n
}

// CPUCount is EffectiveCPUs rounded up, as the JVM counts processors.
func (l Limits) CPUCount() int {
	c := int(math.Ceil(l.EffectiveCPUs() - 1e-9))
	if c < 1 {
		c = 1
	}
	return c
}

// EffectiveMemory is the memory limit, or host memory when unlimited.
func (l Limits) EffectiveMemory() int64 {
	if l.MemoryBytes > 0 {
		return l.MemoryBytes
	}
	return l.HostMemoryBytes
}

// Detect reads the limits that apply to this process through root ("/" in
// production, a fixture tree in tests).
func Detect(root string) (Limits, error) {
	l := Limits{SwapBytes: -1}
	var err error
	if l.HostMemoryBytes, err = limMemTotal(root); err != nil {
		return Limits{}, err
	}
	l.HostCPUs = limHostCPUs(root, &l)
	h, err := ReadHierarchy(root)
	if err != nil {
		return Limits{}, err
	}
	l.Version = h.Version
	if h.Version == 2 {
		limDetectV2(h, &l)
	} else {
		limDetectV1(h, &l)
	}
	if l.MemoryBytes >= l.HostMemoryBytes {
		l.MemoryBytes = 0
	}
	if l.CPUQuota >= float64(l.HostCPUs) {
		l.CPUQuota, l.CPUQuotaInherited = 0, false
	}
	return l, nil
}

// limMemTotal reads MemTotal (kB) from /proc/meminfo.
func limMemTotal(root string) (int64, error) {
	p := filepath.Join(root, "proc", "meminfo")
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, fmt.Errorf("cannot read host memory: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && kb > 0 {
					return kb * 1024, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no MemTotal line in %s", p)
}

// limHostCPUs counts the CPUs in the scheduler affinity mask, falling back
// to the machine's count.
func limHostCPUs(root string, l *Limits) int {
	p := filepath.Join(root, "proc", "self", "status")
	if b, err := os.ReadFile(p); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
				cpus, err := ParseCPUList(rest)
				if err == nil && len(cpus) > 0 {
					return len(cpus)
				}
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s: bad Cpus_allowed_list %q", p, strings.TrimSpace(rest)))
			}
		}
	}
	return runtime.NumCPU()
}

// limAncestors lists dir and its parents up to (and including) mount.
func limAncestors(dir, mount string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == filepath.Clean(mount) || !strings.HasPrefix(d, filepath.Clean(mount)) || d == filepath.Dir(d) {
			return out
		}
	}
}

// limRead returns a file's trimmed content; ok is false when it is missing
// or empty (no limit there).
func limRead(path string, l *Limits) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %v", path, err))
		}
		return "", false
	}
	s := strings.TrimSpace(string(b))
	return s, s != ""
}

// limBytes parses a memory limit value; unlimited forms give 0.
func limBytes(s, path string, l *Limits) int64 {
	if s == "max" || s == "-1" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		l.Warnings = append(l.Warnings, fmt.Sprintf("%s: not a byte count: %q", path, limShort(s)))
		return 0
	}
	// v1 writes "unlimited" as the largest page-aligned int64.
	if v >= 9223372036854771712 {
		return 0
	}
	return v
}

func limShort(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// limTighter keeps the smaller non-zero limit.
func limTighter(cur, v int64) int64 {
	if v > 0 && (cur == 0 || v < cur) {
		return v
	}
	return cur
}
