package backendtest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Fixture is trial's fixture server (internal/trial/testdata/Server.java)
// as the test app of a backend that runs a real JVM (local, container).
type Fixture struct {
	// Classes is where the app finds the compiled server (FixtureClasses's
	// directory, or where a container mounts it).
	Classes string
	// Start gives the descriptor's lines that run java with args: the
	// options the kind needs, -cp, the server's class, mode and port.
	Start func(args []string) string
	// ReadyTimeout is the app's ready_timeout.
	ReadyTimeout time.Duration
}

// Trial is a prepared trial of the fixture server, of kind k, on spec's
// settings (its JVM, limits, Java or engine): serving (OK), touching
// direct memory until the kernel kills it (OOM), or under a minute's load
// (Long), each with trial's light scenario.
func (f Fixture) Trial(t *testing.T, k Kind, spec trial.Spec) (trial.Spec, *trial.App) {
	t.Helper()
	mode, args := "serve", []string{}
	switch k {
	case OOM:
		mode, spec.Duration = "oom", 20*time.Second
		args = append(args, "-XX:MaxDirectMemorySize=4g")
	case Long:
		spec.Duration = time.Minute
	}
	args = append(args, "-cp", f.Classes, "Server", mode, "${port}")
	yaml := fmt.Sprintf("name: conformance-%s\n%sready: http://127.0.0.1:${port}/health\nready_timeout: %s\nscenario: %s\n",
		mode, f.Start(args), f.ReadyTimeout, filepath.Join(trialTestdata(), "light.yaml"))
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if spec, err = trial.Prepare(spec, a, ""); err != nil {
		t.Fatal(err)
	}
	return spec, a
}

// YAMLList is words as a one-line YAML list (JSON is YAML), for Start.
func YAMLList(words []string) string {
	b, _ := json.Marshal(words)
	return string(b)
}

// FixtureClasses compiles the fixture server with jdk's javac (for Java
// 11 and later) into a directory of the test's, readable by a container's
// user.
func FixtureClasses(t *testing.T, jdk string) string {
	t.Helper()
	javac := filepath.Join(jdk, "bin", "javac")
	prereq.File(t, "JDK's javac, which compiles the fixture server", javac, prereq.Installer)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(trialTestdata(), "Server.java")
	if out, err := exec.Command(javac, "--release", "11", "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return dir
}

// LastSampleAfterFullGC is a Harness.FullGC for a backend whose sampler
// reads the JVM where it ran: the last sample follows the full GC the spec
// asked for (an old-generation collection counted).
func LastSampleAfterFullGC(t *testing.T, r *trial.Result) bool {
	if len(r.Series) == 0 {
		return false
	}
	last := r.Series[len(r.Series)-1]
	t.Logf("last sample: %d young, %d old GCs", last.YoungGCs, last.OldGCs)
	return last.OldGCs > 0
}

// trialTestdata is internal/trial/testdata, found from this file so that a
// backend's test finds it from any directory.
func trialTestdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "trial", "testdata")
}
