// Package profile tests `jvmfit profile`'s production sources against real
// things: JVMs on this host, their Micrometer endpoints, and Debian's
// Prometheus started for the test.
package profile

import (
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

func TestMain(m *testing.M) { clitest.Main(m) }
