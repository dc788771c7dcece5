package main

import (
	"os"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// The tests that run jvmfit run the binary built from this package
// (clitest.Main), as a user does; the others call the package's functions.
// A test binary started with panicHelperEnv is instead a jvmfit whose
// command panics (panic_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(panicHelperEnv) != "" {
		os.Exit(panicHelper())
	}
	clitest.Main(m)
}
