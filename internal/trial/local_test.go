//go:build linux

package trial_test

import (
	"github.com/jvmfit/jvmfit/internal/backend/local"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The real-JVM tests of package trial run on this machine's backend.
func init() {
	trial.UseRealDeps(func() trial.Deps { return local.Deps(trial.Options{}) })
}
