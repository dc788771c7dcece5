package launcher

import (
	"errors"
	"testing"
)

// The limits a plan is for: the flags' overrides on top of what is
// detected, and without a cgroup to read, the flags alone; a bad flag is
// the user's to fix.
func TestLimits(t *testing.T) {
	r := Request{Root: t.TempDir(), Memory: "256Mi", CPUs: "1.5", CPUSet: "0-2"}
	l, err := r.limits()
	if err != nil || l.MemoryBytes != 256<<20 || l.CPUQuota != 1.5 || len(l.CPUSet) != 3 || l.HostCPUs < 3 {
		t.Fatalf("limits %+v, %v", l, err)
	}
	var none *NoLimitsError
	if _, err := (Request{Root: t.TempDir()}).limits(); !errors.As(err, &none) {
		t.Errorf("nothing detected and no flags: %v, want a NoLimitsError naming --memory and --cpus", err)
	}
	for _, bad := range []Request{{Memory: "512K"}, {Memory: "lots"}, {CPUs: "-1"}, {CPUs: "NaN"}, {CPUSet: "a-b"}} {
		bad.Root = t.TempDir()
		var in *InputError
		if _, err := bad.limits(); !errors.As(err, &in) {
			t.Errorf("%+v: %v; want an InputError", bad, err)
		}
	}
}
