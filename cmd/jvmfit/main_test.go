package main

import (
	"os"
	"path/filepath"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// The trials that run `jvmfit exec` (tune's soak, minmem's soak, run
// --via-exec) start trial.Executable. Here it is a link named jvmfit to
// this test binary, made beside it (go test removes the directory), and a
// binary started under that name runs main instead of the tests. The
// variable is set at package initialisation, before any init function,
// so that a test binary started as jvmfit by other means has it too.
//
// A trial's app inherits jvmfit's environment, so a binary started as
// jvmfit drops the variables that make launcher_test.go's init run the
// parent's command line instead.
var _ = func() bool {
	trial.Executable = selfAsJvmfit
	if filepath.Base(os.Args[0]) == "jvmfit" {
		os.Unsetenv("JVMFIT_LAUNCHER_TEST_MAIN")
	}
	return true
}()

func selfAsJvmfit() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	link := filepath.Join(filepath.Dir(self), "jvmfit")
	if _, err := os.Lstat(link); err != nil {
		if err := os.Symlink(self, link); err != nil && !os.IsExist(err) {
			return "", err
		}
	}
	return link, nil
}

// Runs after the other files' init functions, which register the
// commands main needs.
func init() {
	if filepath.Base(os.Args[0]) == "jvmfit" {
		main()
		os.Exit(0)
	}
}
