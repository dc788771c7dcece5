package owner

import (
	"sync"
	"time"
)

// One jvmfit process is one run of one owner, and its engines' sandboxes
// live as long as it does, so the owner and the sweep's age are this
// process's: set once by the experiment from its database and flags.
var current struct {
	sync.Mutex
	id    string
	stale time.Duration
}

// Use makes id this process's owner, and stale (0 = never) the age past
// which a sweep removes anyone's runs.
func Use(id string, stale time.Duration) {
	current.Lock()
	defer current.Unlock()
	current.id, current.stale = id, stale
}

// ID is this process's owner: the one Use gave, or else a fresh one of
// its own, which no later run shares (a run without a database leaves
// its leftovers to --sweep-stale).
func ID() string {
	current.Lock()
	defer current.Unlock()
	if current.id == "" {
		current.id = New()
	}
	return current.id
}

// Stale is the age past which a sweep removes anyone's runs (0 = never).
func Stale() time.Duration {
	current.Lock()
	defer current.Unlock()
	return current.stale
}
