package store

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// TrialByID returns one stored trial with its series and histograms; found
// is false when the database has no trial with that id.
func (s *Store) TrialByID(id int64) (r *trial.Result, found bool, err error) {
	rs, err := s.query(`WHERE t.id = ?`, false, id)
	if err != nil {
		return nil, false, fmt.Errorf("store: trial %d: %w", id, err)
	}
	if len(rs) == 0 {
		return nil, false, nil
	}
	return rs[0], true, nil
}
