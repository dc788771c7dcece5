package experiment

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/app"
)

// separateBesideOthers refuses placement: separate for trials side by side
// on this machine. The placement puts the app on the first CPUs jvmfit may
// use and pins jvmfit's whole process (every trial's load generator) to
// the rest: with two trials at once both apps would get the same CPUs,
// and each trial would re-pin and restore the one process under the
// other. The CPU places of --parallel already keep the apps apart and
// leave a CPU out of every app's cpuset for the load; what they cannot
// give is a load generator and services on CPUs of their own per trial,
// which is what the descriptor asks for. So the user chooses: that
// placement one trial at a time, or side by side without it. An image
// app is never placed (its container has the cpuset), so it may.
func separateBesideOthers(a *app.App, parallel int) error {
	if a == nil || a.Placement != app.PlacementSeparate || a.Image != "" {
		return nil
	}
	where := "the descriptor"
	if a.File != "" {
		where = a.File
	}
	return fmt.Errorf("--parallel %d on this machine and placement: separate in %s do not go together (side-by-side trials share jvmfit's one process, so no trial's load generator and services get CPUs of their own): give --parallel 1 to keep the placement, or placement: shared to run side by side", parallel, where)
}
