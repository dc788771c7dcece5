// Package cleanup is jvmfit's one emergency-cleanup registry. Every
// backend that starts something outside jvmfit (the local cgroup sandbox,
// throwaway services, containers) stops it through deferred calls on the
// ordinary paths, and registers here the hook that removes whatever is
// still alive when those calls cannot run: a second SIGINT or SIGTERM, or
// the end of main after a failed path. main calls Now; nothing else needs
// to know which backends exist.
package cleanup

import "sync"

var hooks = struct {
	sync.Mutex
	next int
	live map[int]func()
}{live: map[int]func(){}}

// Register adds a hook that stops and removes, without grace, what its
// backend still has alive. The returned function removes the hook.
func Register(hook func()) (remove func()) {
	hooks.Lock()
	defer hooks.Unlock()
	id := hooks.next
	hooks.next++
	hooks.live[id] = hook
	return func() {
		hooks.Lock()
		delete(hooks.live, id)
		hooks.Unlock()
	}
}

// Now runs every hook at once and returns when all are done. Hooks stay
// registered: running them again finds nothing left to remove.
func Now() {
	hooks.Lock()
	hs := make([]func(), 0, len(hooks.live))
	for _, h := range hooks.live {
		hs = append(hs, h)
	}
	hooks.Unlock()
	AtOnce(hs...)
}

// AtOnce runs every stop at the same time and returns when all are done:
// an emergency stops everything without one stop's grace delaying the
// next.
func AtOnce(stops ...func()) {
	var wg sync.WaitGroup
	for _, stop := range stops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop()
		}()
	}
	wg.Wait()
}
