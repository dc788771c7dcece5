package cgroup

import (
	"slices"
	"testing"
)

func TestLimitsOverride(t *testing.T) {
	detected := Limits{Version: 2, MemoryBytes: 8 << 30, HostMemoryBytes: 16 << 30, SwapBytes: -1, CPUQuota: 2, CPUQuotaInherited: true, HostCPUs: 2}
	l := detected.Override(512<<20, 4, nil)
	if l.MemoryBytes != 512<<20 || l.HostMemoryBytes != 16<<30 || l.SwapBytes != -1 || l.CPUQuota != 4 || l.CPUQuotaInherited || l.HostCPUs != 4 {
		t.Errorf("override %+v", l)
	}
	if l := detected.Override(0, 0, []int{0, 1, 2}); l.MemoryBytes != 8<<30 || l.CPUQuota != 2 || !slices.Equal(l.CPUSet, []int{0, 1, 2}) || l.HostCPUs != 3 {
		t.Errorf("cpuset only %+v", l)
	}
	// Built from nothing, as tune plans a point: the host is the point.
	if l := (Limits{}).Override(96<<20, 0.5, nil); l.HostMemoryBytes != 96<<20 || l.HostCPUs != 1 || l.SwapBytes != 0 || l.CPUQuota != 0.5 {
		t.Errorf("from nothing %+v", l)
	}
}
