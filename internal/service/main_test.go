//go:build linux

package service

import (
	"os"
	"testing"

	"github.com/jvmfit/jvmfit/internal/upstream"
)

// TestMain answers `upstream` as jvmfit does, so the kind http services
// this package's tests start run the test binary itself (Executable).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "upstream" {
		os.Exit(upstream.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
