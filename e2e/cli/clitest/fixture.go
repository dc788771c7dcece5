package clitest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/jvmfit/jvmfit/internal/backend/backendtest"
)

// RunFixture writes a descriptor of trial's fixture server
// (internal/trial/testdata/Server.java, compiled for JDK 17) in mode
// (serve, oom, ...) with its light scenario, and returns its path.
func RunFixture(t *testing.T, mode, readyTimeout string) string {
	t.Helper()
	NeedJava(t)
	dir := backendtest.FixtureClasses(t, path.Dir(path.Dir(Java17)))
	sc, err := os.ReadFile(Repo("internal", "trial", "testdata", "light.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "light.yaml", string(sc))
	desc := fmt.Sprintf(`name: fixture
command: ["${java}", "${jvm_options}", "-cp", %q, "Server", %q, "${port}"]
ready: http://127.0.0.1:${port}/health
ready_timeout: %s
scenario: light.yaml
`, dir, mode, readyTimeout)
	return writeFile(t, dir, "app.yaml", desc)
}

// WriteDesc writes body as app.yaml in a directory of the test's and
// returns its path.
func WriteDesc(t *testing.T, body string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), "app.yaml", body)
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
