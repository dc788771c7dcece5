package trial

import (
	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// A host app's trial runs in this machine's cgroups, which the local
// backend (internal/backend/local) makes; a host whose cgroup layout or
// rights give trials no limits is refused in Prepare, before a service or
// the app starts, whoever prepares the trial (the Session, init's check,
// `jvmfit run`). The local backend knows how to ask and registers the
// question with UseHostCheck when linked, as the container backend does
// its image reader (UseImages): trial knows the question, not cgroups'
// layouts. Without the local backend nothing runs a host app, so there is
// nothing to refuse.
var hostCheck func(cgroup.Spec) error

// UseHostCheck registers the check of this host's limits
// (internal/backend/local's init).
func UseHostCheck(check func(cgroup.Spec) error) { hostCheck = check }

// checkHost refuses, changing nothing, a host app's trial that this host
// cannot run: its jar or the libraries its manifest names are not there
// (the JVM would start and fail before ready at every limit, a search of
// KOs that say nothing about memory), or its limits cannot be set here.
func checkHost(spec Spec, a *app.App) error {
	if a.Image != "" || hostCheck == nil {
		return nil
	}
	if a.Jar != "" {
		if err := app.CheckJarFiles(a.Jar); err != nil {
			return err
		}
	}
	if spec.NoLimits {
		return nil
	}
	return hostCheck(cgroup.Spec{MemoryBytes: spec.MemoryBytes, CPUs: spec.CPUs, CPUSet: spec.CPUSet})
}
