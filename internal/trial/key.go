package trial

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Key identifies the experiment cell a Spec describes: two specs with the
// same Key would run the same trial, so a stored result can stand in for a
// new run (sweep resumes from it). It hashes the canonical JSON of the Spec:
// encoding/json writes struct fields in declaration order and map keys
// sorted, so the bytes depend only on the values. Spec holds no volatile
// fields (no times, ports or temp paths); anything added to it that varies
// from run to run must be cleared here, or resuming breaks.
func (s Spec) Key() string {
	// How the trial is measured and stopped, and which CPUs it ran on, is
	// no part of which trial it is (and keys stored before these fields existed stay the same).
	s.FullGCAtEnd, s.StopGrace, s.Placement = false, 0, ""
	b, err := json.Marshal(s)
	if err != nil {
		// Spec has only plain fields; Marshal cannot fail on it.
		panic("trial: spec is not serialisable: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// AppCPUSet is the cpuset the app's cgroup gets: the one the user asked
// for, else its placement beside other trials ("" = every CPU).
func (s Spec) AppCPUSet() string {
	if s.CPUSet != "" {
		return s.CPUSet
	}
	return s.Placement
}
