package trial

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// fixtureClasses holds the compiled testdata/Server.java ("" when no javac).
var fixtureClasses string

const java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jvmfit-fixture-")
	if err == nil {
		javac := filepath.Join(filepath.Dir(java17), "javac")
		src, _ := filepath.Abs("testdata/Server.java")
		// --release 11 keeps the fixture runnable on every JDK we test.
		if out, err := exec.Command(javac, "--release", "11", "-d", dir, src).CombinedOutput(); err == nil {
			fixtureClasses = dir
		} else {
			fmt.Fprintf(os.Stderr, "fixture not compiled: %v\n%s", err, out)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func needFixture(t *testing.T) {
	t.Helper()
	if fixtureClasses == "" {
		prereq.File(t, "JDK 17's javac, which compiles the fixture server", filepath.Join(filepath.Dir(java17), "javac"), prereq.Installer)
		t.Fatal("the fixture server did not compile (TestMain printed why)")
	}
}

func needRoot(t *testing.T) {
	t.Helper()
	prereq.Root(t)
}

// fixtureApp is a descriptor for the fixture server in the given mode;
// javaOpts come before the class name (after the trial's options).
func fixtureApp(t *testing.T, mode string, readyTimeout time.Duration, javaOpts ...string) *app.App {
	t.Helper()
	return fixtureDescriptor(t, []string{"${java}", "${jvm_options}"}, mode, readyTimeout, javaOpts...)
}

// fixtureDescriptor is the fixture server's descriptor whose command
// starts with prefix (the java command, or a wrapper around it).
func fixtureDescriptor(t *testing.T, prefix []string, mode string, readyTimeout time.Duration, javaOpts ...string) *app.App {
	t.Helper()
	needFixture(t)
	cmd := append(append([]string{}, prefix...), javaOpts...)
	cmd = append(cmd, "-cp", fixtureClasses, "Server", mode, "${port}")
	q := make([]string, len(cmd))
	for i, c := range cmd {
		q[i] = fmt.Sprintf("%q", c)
	}
	scenario, _ := filepath.Abs("testdata/light.yaml")
	yaml := fmt.Sprintf("name: fixture-%s\ncommand: [%s]\nready: http://127.0.0.1:${port}/health\nready_timeout: %s\nscenario: %s\n",
		mode, strings.Join(q, ", "), readyTimeout, scenario)
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func prepared(t *testing.T, a *app.App, s Spec) Spec {
	t.Helper()
	if s.Java == "" {
		s.Java = java17
	}
	prereq.Java(t, s.Java)
	s, err := Prepare(s, a, "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func deps(t *testing.T) Deps {
	d := realDeps() // the local backend's (local_test.go)
	d.Progress = testLog{t}
	d.LogDir = t.TempDir()
	return d
}

// ownTrialGroups lists jvmfit trial cgroups below our own memory cgroup.
func ownTrialGroups(t *testing.T) []string {
	t.Helper()
	self, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(self), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && parts[1] == "memory" {
			base := filepath.Join("/sys/fs/cgroup/memory", parts[2], fmt.Sprintf("jvmfit-%d", os.Getpid()))
			var out []string
			entries, _ := os.ReadDir(base)
			for _, e := range entries {
				if e.IsDir() {
					out = append(out, filepath.Join(base, e.Name()))
				}
			}
			return out
		}
	}
	return nil
}

func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || strings.Contains(string(b), ") Z ")
}

// timedRun runs one trial of a under spec on the real deps, failing the
// test if jvmfit could not run it; it logs the result's line and returns
// it with how long the trial took (the tests of early stops judge that).
func timedRun(t *testing.T, a *app.App, spec Spec) (*Result, time.Duration) {
	t.Helper()
	t0 := time.Now()
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	t.Logf("%s (in %v)", r.Line(), took.Round(100*time.Millisecond))
	return r, took
}
