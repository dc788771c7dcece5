package tune

import (
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

func TestMain(m *testing.M) { clitest.Main(m) }
