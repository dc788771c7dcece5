package main

import (
	"strings"
	"testing"
)

// Where no limit can be read and none is given, exec warns in one line
// and runs the user's command unchanged: it never blocks a start over
// sizing. --strict still refuses, and java does not run.
func TestExecUndetectableLimitsRunsPlainJava(t *testing.T) {
	root := t.TempDir() // no /proc, no /sys/fs/cgroup: nothing to detect
	flags, _, errs, code := execFinal(t, nil, "--root", root)
	if code != 0 {
		t.Fatalf("exit %d, want java's 0\nstderr:\n%s", code, errs)
	}
	if n := strings.Count(errs, "jvmfit: warning:"); n != 1 || strings.Count(errs, "jvmfit:") != 1 {
		t.Errorf("want one warning line, got:\n%s", errs)
	}
	if set := setByJvmfit(flags); len(set) != 0 {
		t.Errorf("java's command line set %v: want the user's command unchanged", set)
	}
	flags, _, errs, code = execFinal(t, nil, "--root", root, "--strict")
	if code == 0 || len(flags) != 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("--strict: exit %d, %d flags printed, stderr %q; want a one-line refusal and no java", code, len(flags), errs)
	}
}
