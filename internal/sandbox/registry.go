//go:build linux

package sandbox

import (
	"sync"

	"github.com/jvmfit/jvmfit/internal/cleanup"
)

// StopAll is the sandbox's emergency-cleanup hook (internal/cleanup).
func init() { cleanup.Register(StopAll) }

// The registry holds every process not yet stopped, so that a path that
// cannot run the trial's deferred Stop (a second signal, a panic handler in
// main) still leaves nothing behind.
var registry = struct {
	sync.Mutex
	live map[*Process]struct{}
}{live: map[*Process]struct{}{}}

func register(p *Process) {
	registry.Lock()
	registry.live[p] = struct{}{}
	registry.Unlock()
}

func unregister(p *Process) {
	registry.Lock()
	delete(registry.live, p)
	registry.Unlock()
}

// StopAll stops every live sandboxed process at once, without grace, and
// removes their cgroups. It returns when all are cleaned up.
func StopAll() {
	registry.Lock()
	stops := make([]func(), 0, len(registry.live))
	for p := range registry.live {
		stops = append(stops, func() { p.Stop(0) })
	}
	registry.Unlock()
	cleanup.AtOnce(stops...)
}

// Live is how many sandboxed processes have not been stopped yet.
func Live() int {
	registry.Lock()
	defer registry.Unlock()
	return len(registry.live)
}
