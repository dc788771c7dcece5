package tune

import (
	"context"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// tune --profile: no profile trial, the given profile plans every point,
// and the answer is the one a measured (identical) profile gives, one
// trial cheaper.
func TestTuneWithAGivenProfileSkipsTheProfileTrial(t *testing.T) {
	measured := footprintApp()
	want, err := Run(context.Background(), simConfig(measured, plan.Footprint, 30), measured)
	if err != nil {
		t.Fatal(err)
	}
	a := footprintApp()
	cfg := simConfig(a, plan.Footprint, 30)
	cfg.Profile = want.Profile
	got, err := Run(context.Background(), cfg, a)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range a.runs {
		if p.Purpose == PurposeProfile {
			t.Fatalf("a profile trial ran: %s", p)
		}
		if p.Purpose != PurposeTraining && p.Profile != want.Profile {
			t.Fatalf("%s: planned without the given profile", p)
		}
	}
	if got.Profile != want.Profile || got.MemoryBytes != want.MemoryBytes || got.Candidate != want.Candidate || got.Verdict != want.Verdict {
		t.Fatalf("with the profile given: %s %s %s; measured: %s %s %s", size.Format(got.MemoryBytes), got.Candidate, got.Verdict,
			size.Format(want.MemoryBytes), want.Candidate, want.Verdict)
	}
	cfg.Budget, cfg.Soak = 4, time.Minute
	if err := cfg.withDefaults().Validate(); err != nil {
		t.Errorf("budget 4 with a profile and a soak: %v (one search trial and the proof fit)", err)
	}
	cfg.Budget = 3
	if err := cfg.withDefaults().Validate(); err == nil {
		t.Error("budget 3 with a profile and a soak: accepted, but the proof alone keeps 3")
	}
}
