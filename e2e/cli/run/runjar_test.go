package run

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// run --jar without --ready: the port and readiness come from the jar's
// framework, as init finds them; without --get the load is the
// framework's own endpoint (/health here), as init writes it.
func TestRunJarWithoutReady(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t)
	jar := filepath.Join("..", "..", "..", "workloads", "greet-plain", "target", "greet-plain.jar")
	prereq.Built(t, jar)
	stdout, stderr, code := clitest.Run(t, nil, "run", "--jar", jar, "--memory", "256Mi", "--java", clitest.Java17, "--db", filepath.Join(t.TempDir(), "j.db"),
		"--rate", "20", "--warmup", "1s", "--duration", "2s")
	if code != 0 || !strings.Contains(stdout, "| OK |") || !strings.Contains(stderr, "--port=") || !strings.Contains(stdout, "40 requests") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}
