package experiment

import (
	"github.com/jvmfit/jvmfit/internal/owner"
	"github.com/jvmfit/jvmfit/internal/store"
)

// claimOwner makes this process's run one of the owner recorded beside
// st's database (owner.ForDB), before the first trial starts anything a
// sweep could later judge: the containers of a local image app and the
// cgroups are this process's; the sweeps of later runs on the same
// database remove what it leaves once it is gone (docs/faults.md,
// "Security"). Without a store the run is an owner of its own. The same
// call sets --sweep-stale's age for every engine's sweep.
func (s *Session) claimOwner(st *store.Store) error {
	s.owned.Do(func() {
		id := ""
		if st != nil {
			id, s.ownerErr = owner.ForDB(st.Path())
		}
		owner.Use(id, s.SweepStale)
	})
	return s.ownerErr
}
