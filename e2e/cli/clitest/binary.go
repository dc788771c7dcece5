// Package clitest runs the jvmfit binary for the command-line tests under
// e2e/cli (one package per group of commands, so that `go test ./...` runs
// the groups' real trials beside the other packages rather than one after
// another in cmd/jvmfit): the binary built once per test binary from
// cmd/jvmfit (Main), run with a clean JVM environment (Cmd, Run), and the
// fixtures and checks the groups share.
package clitest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// Java17 is the JDK the tests run trials with.
const Java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"

// bin is the jvmfit binary Main built.
var bin string

// Main builds jvmfit from cmd/jvmfit into a temporary directory, runs the
// package's tests against it and removes the directory: a package's
// TestMain is `func TestMain(m *testing.M) { clitest.Main(m) }`.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "jvmfit-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "clitest: temp dir:", err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "jvmfit")
	build := exec.Command("go", "build", "-o", bin, Repo("cmd", "jvmfit"))
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	code := 1
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "clitest: building jvmfit:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// Repo is a path in the repository, found from the test's directory
// (the nearest one up with go.mod), so that any package's tests can use
// this one.
func Repo(elem ...string) string {
	root, _ := filepath.Abs(".")
	for d := root; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
			break
		}
		if d == filepath.Dir(d) {
			break // no go.mod: paths stay relative to here, and fail plainly
		}
	}
	return filepath.Join(append([]string{root}, elem...)...)
}

// Bin is the jvmfit binary Main built, for tests that start it themselves
// (in a cgroup of their own, say).
func Bin() string { return bin }

// Cmd is jvmfit with args, its environment the test's less the variables
// that would change a JVM's options behind a test's back, plus env.
func Cmd(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	if bin == "" {
		t.Fatal("clitest: no jvmfit binary: the package's TestMain must call clitest.Main")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(),
		"JAVA_OPTIONS=", "JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS=", "_JAVA_OPTIONS=", "JAVA_MAX_MEM_RATIO=", "JAVA_INIT_MEM_RATIO=", "JVMFIT_DISABLE=", "JAVA_APP_JAR=", "JAVA_MAIN_CLASS=")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// Run runs jvmfit to its end: stdout, stderr and the exit code.
func Run(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := Cmd(t, env, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// NeedJava fails t unless JDK 17 is installed.
func NeedJava(t *testing.T) {
	t.Helper()
	prereq.Java(t, Java17)
}

// First is at most the first n of list, for a message.
func First(list []string, n int) []string {
	return list[:min(n, len(list))]
}
