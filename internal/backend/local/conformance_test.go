//go:build linux

package local_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend/backendtest"
	"github.com/jvmfit/jvmfit/internal/backend/local"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The local backend passes the conformance suite with real cgroups and a
// real JVM: trial's fixture server (internal/trial/testdata/Server.java).
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: real JVM trials")
	}
	prereq.Root(t)
	prereq.Java(t, jdk17+"/bin/java")
	fixture := backendtest.Fixture{
		Classes:      backendtest.FixtureClasses(t, jdk17),
		ReadyTimeout: 30 * time.Second,
		Start: func(args []string) string {
			return "command: " + backendtest.YAMLList(append([]string{"${java}", "${jvm_options}"}, args...)) + "\n"
		},
	}
	backendtest.Run(t, backendtest.Harness{
		Backend: local.Backend{},
		Trial: func(t *testing.T, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
			return fixture.Trial(t, k, trial.Spec{Java: jdk17 + "/bin/java", JVM: "default", MemoryBytes: mem, CPUs: cpus})
		},
		Live:   func(*testing.T) []string { return trialGroups("memory") },
		Limits: groupLimits,
		FullGC: backendtest.LastSampleAfterFullGC,
	})
}

const jdk17 = "/usr/lib/jvm/java-17-openjdk-amd64"

// ownGroup is this process's cgroup in a v1 controller's hierarchy (or v2's
// one), as a directory.
func ownGroup(controller string) string {
	b, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			if c == controller {
				return filepath.Join("/sys/fs/cgroup", f[1], f[2])
			}
		}
		if f[0] == "0" && f[1] == "" {
			return filepath.Join("/sys/fs/cgroup", f[2])
		}
	}
	return ""
}

// trialGroups lists this process's trial groups (jvmfit-PID/jvmfit-trial-*)
// in a controller's hierarchy.
func trialGroups(controller string) []string {
	m, _ := filepath.Glob(filepath.Join(ownGroup(controller), "jvmfit-"+strconv.Itoa(os.Getpid()), "*", "jvmfit-trial-*"))
	direct, _ := filepath.Glob(filepath.Join(ownGroup(controller), "jvmfit-"+strconv.Itoa(os.Getpid()), "jvmfit-trial-*"))
	return append(m, direct...)
}

// groupLimits reads the running trial's limits from its groups' files:
// v1 memory.limit_in_bytes and cpu.cfs_quota_us/period, or v2 memory.max
// and cpu.max.
func groupLimits(*testing.T) (int64, float64, bool) {
	mg := trialGroups("memory")
	if len(mg) != 1 {
		return 0, 0, false
	}
	if v, err := readInt(mg[0], "memory.limit_in_bytes"); err == nil {
		cg := trialGroups("cpu")
		if len(cg) != 1 {
			return 0, 0, false
		}
		quota, err1 := readInt(cg[0], "cpu.cfs_quota_us")
		period, err2 := readInt(cg[0], "cpu.cfs_period_us")
		if err1 != nil || err2 != nil || period == 0 {
			return 0, 0, false
		}
		return v, float64(quota) / float64(period), true
	}
	v, err := readInt(mg[0], "memory.max")
	b, err2 := os.ReadFile(filepath.Join(mg[0], "cpu.max"))
	f := strings.Fields(string(b))
	if err != nil || err2 != nil || len(f) != 2 {
		return 0, 0, false
	}
	quota, _ := strconv.ParseFloat(f[0], 64)
	period, _ := strconv.ParseFloat(f[1], 64)
	return v, quota / period, period > 0
}

func readInt(dir, name string) (int64, error) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}
