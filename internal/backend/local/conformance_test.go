//go:build linux

package local_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	prereq.Java(t, java17)
	backendtest.Run(t, backendtest.Harness{
		Backend: local.Backend{},
		Trial:   fixtureTrial,
		Live:    func(*testing.T) []string { return trialGroups("memory") },
		Limits:  groupLimits,
		FullGC:  lastSampleAfterFullGC,
	})
}

const java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

var fixture struct {
	once sync.Once
	dir  string
	err  error
}

// fixtureClasses compiles the fixture server once per test binary.
func fixtureClasses(t *testing.T) string {
	t.Helper()
	javac := filepath.Join(filepath.Dir(java17), "javac")
	prereq.File(t, "JDK 17's javac, which compiles the fixture server", javac, prereq.Installer)
	fixture.once.Do(func() {
		fixture.dir, fixture.err = os.MkdirTemp("", "jvmfit-fixture-")
		if fixture.err != nil {
			return
		}
		src, _ := filepath.Abs("../../trial/testdata/Server.java")
		if out, err := exec.Command(javac, "--release", "11", "-d", fixture.dir, src).CombinedOutput(); err != nil {
			fixture.err = fmt.Errorf("javac: %v\n%s", err, out)
		}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

// fixtureTrial is the fixture server with its light scenario: serving
// (OK), touching direct memory until the kernel kills it (OOM), or under a
// minute's load (Long).
func fixtureTrial(t *testing.T, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
	mode, opts, spec := "serve", "", trial.Spec{Java: java17, JVM: "default", MemoryBytes: mem, CPUs: cpus}
	switch k {
	case backendtest.OOM:
		mode, opts, spec.Duration = "oom", `"-XX:MaxDirectMemorySize=4g", `, 20*time.Second
	case backendtest.Long:
		spec.Duration = time.Minute
	}
	scenario, _ := filepath.Abs("../../trial/testdata/light.yaml")
	yaml := fmt.Sprintf("name: conformance-%s\ncommand: [\"${java}\", \"${jvm_options}\", %s\"-cp\", %q, \"Server\", %q, \"${port}\"]\n"+
		"ready: http://127.0.0.1:${port}/health\nready_timeout: 30s\nscenario: %s\n", mode, opts, fixtureClasses(t), mode, scenario)
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if spec, err = trial.Prepare(spec, a, ""); err != nil {
		t.Fatal(err)
	}
	return spec, a
}

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

// lastSampleAfterFullGC: the sampler's last sample follows the full GC the
// spec asked for (an old-generation collection counted).
func lastSampleAfterFullGC(t *testing.T, r *trial.Result) bool {
	if len(r.Series) == 0 {
		return false
	}
	last := r.Series[len(r.Series)-1]
	t.Logf("last sample: %d young, %d old GCs", last.YoungGCs, last.OldGCs)
	return last.OldGCs > 0
}
