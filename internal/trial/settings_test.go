package trial

import (
	"testing"
	"time"
)

// How a trial is measured and stopped, and its role, are no part of which
// trial it is: the key of a spec stored before these fields is unchanged.
func TestSettingsAndRoleStayOutOfTheKey(t *testing.T) {
	s := Spec{App: "a.yaml", JVM: "default", MemoryBytes: 256 << 20, CPUs: 1}
	k := s.Key()
	s.FullGCAtEnd, s.StopGrace, s.Purpose, s.Candidate = true, time.Minute, PurposeProfile, "serial-c1"
	if s.Key() != k {
		t.Error("a setting or role changed the trial's key")
	}
}
