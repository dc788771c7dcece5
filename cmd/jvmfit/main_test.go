package main

import (
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// The tests that run jvmfit run the binary built from this package
// (clitest.Main), as a user does; the others call the package's functions.
func TestMain(m *testing.M) { clitest.Main(m) }
