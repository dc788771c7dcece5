package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// TestMain builds jvmfit once for the package, as the CLI tests do.
func TestMain(m *testing.M) { clitest.Main(m) }

// jvmfit runs the built binary and returns its stdout; any failure fails t.
func jvmfit(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(clitest.Bin(), args...)
	// The launcher's inputs come from the arguments only, never from the
	// environment of whoever runs the tests.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("jvmfit %v: %v %s", args, err, msg)
	}
	return string(out)
}

// readDoc reads a file relative to the repository root.
func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// needJava fails t unless a java is on PATH: `jvmfit flags` plans for it.
func needJava(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		prereq.Fail(t, "java on PATH (JDK 17, which the docs' plan tables are for)", prereq.Installer)
	}
}
