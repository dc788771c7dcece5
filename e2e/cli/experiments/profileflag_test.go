package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// --profile and --via-exec refuse what they cannot mean, in one line and
// exit 2, before anything runs.
func TestProfileAndViaExecBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	desc := clitest.RunFixture(t, "serve", "10s")
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"version":1,"nope":3}`), 0o644)
	cases := map[string][]string{
		"run profile, default mode": {"run", "--app", desc, "--java", clitest.Java17, "--memory", "256Mi", "--profile", bad},
		"run via-exec, set mode":    {"run", "--app", desc, "--java", clitest.Java17, "--memory", "256Mi", "--via-exec", "--jvm", "-Xmx64m"},
		"run bad profile":           {"run", "--app", desc, "--java", clitest.Java17, "--memory", "256Mi", "--jvm", "jvmfit", "--profile", bad},
		"minmem missing profile":    {"minmem", "--app", desc, "--java", clitest.Java17, "--jvm", "jvmfit", "--profile", "/nonexistent.json"},
		"tune bad profile":          {"tune", "--app", desc, "--java", clitest.Java17, "--cpus", "1", "--profile", bad},
	}
	for name, args := range cases {
		_, stderr, code := clitest.Run(t, nil, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(stderr, "profile") && !strings.Contains(stderr, "via-exec") {
			t.Errorf("%s: exit %d, stderr %q: want exit 2 and one line", name, code, stderr)
		}
	}
}
