package experiment

import (
	"fmt"
	"strings"
)

// With trials side by side, progress says when a round starts and what
// it holds ("round 3: 4 trials side by side: memory=...; ..."), and each
// trial's line how many others are still in flight ("..., 3 in flight"),
// so that a user watching knows what is running now, not only what ended.

// Round says a round of trials, named by what, is starting side by side
// (nothing when trials run one at a time).
func (s *Session) Round(whats []string) {
	if s.Parallel <= 1 || len(whats) < 2 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count.rounds++
	if len(whats) > s.Parallel {
		// A sweep's batch: its cells' own lines say what each is.
		s.line("round %d: %d trials, %d at a time", s.count.rounds, len(whats), s.Parallel)
		return
	}
	s.line("round %d: %d trials side by side: %s", s.count.rounds, len(whats), strings.Join(whats, "; "))
}

// inFlight is the suffix of a trial's line when others still run beside
// it; called with mu held.
func (s *Session) inFlight() string {
	if s.Parallel <= 1 || s.count.running == 0 {
		return ""
	}
	return fmt.Sprintf(", %d in flight", s.count.running)
}
