//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDetectFixtures(t *testing.T) {
	const mi, gi = int64(1) << 20, int64(1) << 30
	cases := []struct {
		dir       string
		version   int
		mem, host int64
		swap      int64
		quota     float64
		inherited bool
		cpuset    []int
		hostCPUs  int
		effective float64
		warnings  int
	}{
		{"v1-nested", 1, 512 * mi, 16 * gi, 512 * mi, 1.5, false, []int{0, 1, 2, 3, 8}, 16, 1.5, 0},
		{"v1-parent", 1, 256 * mi, 8 * gi, -1, 0.5, true, []int{2}, 4, 0.5, 0},
		{"v2-nested", 2, 1 * gi, 4 * gi, 0, 2.5, true, []int{0, 1}, 4, 2, 0},
		{"v2-max", 2, 0, 8 * gi, -1, 0, false, []int{0, 1, 2, 3, 4, 5, 6, 7}, 6, 6, 0},
		{"v2-fraction", 2, 0, 2 * gi, -1, 0.25, false, nil, 8, 0.25, 0},
		{"v1-broken", 1, 0, 16 * gi, -1, 0, false, nil, 4, 4, 3},
		{"v2-broken", 2, 0, 16 * gi, -1, 0, false, nil, 0, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			l, err := Detect(filepath.Join("testdata", "limits", c.dir))
			if err != nil {
				t.Fatal(err)
			}
			if l.Version != c.version || l.MemoryBytes != c.mem || l.HostMemoryBytes != c.host || l.SwapBytes != c.swap {
				t.Errorf("memory: got v%d mem=%d host=%d swap=%d, want v%d %d %d %d", l.Version, l.MemoryBytes, l.HostMemoryBytes, l.SwapBytes, c.version, c.mem, c.host, c.swap)
			}
			if l.CPUQuota != c.quota || l.CPUQuotaInherited != c.inherited || !reflect.DeepEqual(l.CPUSet, c.cpuset) {
				t.Errorf("cpu: got quota=%v inherited=%v set=%v, want %v %v %v", l.CPUQuota, l.CPUQuotaInherited, l.CPUSet, c.quota, c.inherited, c.cpuset)
			}
			if c.hostCPUs > 0 && (l.HostCPUs != c.hostCPUs || l.EffectiveCPUs() != c.effective) {
				t.Errorf("host cpus %d effective %v, want %d %v", l.HostCPUs, l.EffectiveCPUs(), c.hostCPUs, c.effective)
			}
			if len(l.Warnings) != c.warnings {
				t.Errorf("warnings %q, want %d", l.Warnings, c.warnings)
			}
		})
	}
}

func TestDetectBrokenWarningsNameTheFile(t *testing.T) {
	l, err := Detect(filepath.Join("testdata", "limits", "v1-broken"))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(l.Warnings, "\n")
	for _, want := range []string{"memory.limit_in_bytes", "memory.stat", "cpuset.cpus"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning about %s in %q", want, all)
		}
	}
}

func TestDetectNeedsMeminfo(t *testing.T) {
	_, err := Detect(filepath.Join("testdata", "limits", "no-meminfo"))
	if err == nil || !strings.Contains(err.Error(), "meminfo") {
		t.Fatalf("got %v, want an error naming meminfo", err)
	}
}

// A memory limit on a v1 ancestor that is tighter than the own cgroup's
// limit wins even without memory.stat.
func TestDetectV1TightestAncestor(t *testing.T) {
	root := writeFixture(t, map[string]string{
		"proc/meminfo":                           "MemTotal: 1048576 kB\n",
		"proc/self/status":                       "Cpus_allowed_list:\t0\n",
		"proc/self/cgroup":                       "3:memory:/a/b\n",
		"proc/self/mountinfo":                    "26 25 0:23 / /cg/mem rw - cgroup cgroup rw,memory\n",
		"cg/mem/a/memory.limit_in_bytes":         "104857600\n",
		"cg/mem/a/b/memory.limit_in_bytes":       "209715200\n",
		"cg/mem/a/b/memory.memsw.limit_in_bytes": "209715200\n",
	})
	l, err := Detect(root)
	if err != nil {
		t.Fatal(err)
	}
	if l.MemoryBytes != 100<<20 || l.HostCPUs != 1 || l.EffectiveCPUs() != 1 {
		t.Fatalf("got %+v", l)
	}
}

func TestParseCPUList(t *testing.T) {
	good := map[string][]int{
		"0-3,8":   {0, 1, 2, 3, 8},
		" 1 ":     {1},
		"4-5,0-1": {0, 1, 4, 5},
		"2,2,1-2": {1, 2},
	}
	for in, want := range good {
		got, err := ParseCPUList(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "a", "3-1", "-1", "1-", "0-99999999"} {
		if got, err := ParseCPUList(bad); err == nil {
			t.Errorf("ParseCPUList(%q) = %v, want an error", bad, got)
		}
	}
	if s := FormatCPUList([]int{0, 1, 2, 3, 8, 10, 11}); s != "0-3,8,10-11" {
		t.Errorf("FormatCPUList: %s", s)
	}
}

func TestEffectiveCPUs(t *testing.T) {
	cases := []struct {
		l    Limits
		want float64
		n    int
	}{
		{Limits{HostCPUs: 8}, 8, 8},
		{Limits{HostCPUs: 8, CPUQuota: 1.5}, 1.5, 2},
		{Limits{HostCPUs: 8, CPUQuota: 0.1}, 0.1, 1},
		{Limits{HostCPUs: 8, CPUQuota: 4, CPUSet: []int{0, 1}}, 2, 2},
		{Limits{HostCPUs: 2, CPUSet: []int{0, 1, 2, 3}}, 2, 2},
	}
	for _, c := range cases {
		if got := c.l.EffectiveCPUs(); got != c.want || c.l.CPUCount() != c.n {
			t.Errorf("%+v: effective %v count %d, want %v %d", c.l, got, c.l.CPUCount(), c.want, c.n)
		}
	}
}

// On this machine Detect must agree with the files the kernel shows.
func TestDetectLiveHost(t *testing.T) {
	if _, err := os.Stat("/proc/self/cgroup"); err != nil {
		t.Skip("no /proc")
	}
	l, err := Detect("/")
	if err != nil {
		t.Fatal(err)
	}
	if l.HostMemoryBytes <= 0 || l.HostCPUs <= 0 || l.Version == 0 {
		t.Fatalf("implausible limits %+v", l)
	}
}
