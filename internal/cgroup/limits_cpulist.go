//go:build linux

package cgroup

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParseCPUList reads the kernel's CPU list format ("0-3,8", "1", "0-1,4-5").
// The result is sorted and free of duplicates.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("empty CPU list: give CPUs like 0-3,8")
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("bad CPU list %q: %q is not a CPU number (e.g. 0-3,8)", limShort(s), limShort(part))
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("bad CPU list %q: %q is not a range low-high (e.g. 0-3)", limShort(s), limShort(part))
			}
		}
		if b-a > 1<<16 {
			return nil, fmt.Errorf("bad CPU list %q: range %q is too large", limShort(s), part)
		}
		for c := a; c <= b; c++ {
			seen[c] = true
		}
	}
	out := make([]int, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out, nil
}

// FormatCPUList writes CPUs back in the kernel's compact form.
func FormatCPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
