package tune

import (
	"context"
	"strings"
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
	cfg.Budget, cfg.Soak = 6, time.Minute
	if err := cfg.withDefaults().Validate(); err != nil {
		t.Errorf("budget 6 with a profile and a soak: %v (the launcher's edge and the proof fit)", err)
	}
	cfg.Budget = 5
	if err := cfg.withDefaults().Validate(); err == nil || !strings.Contains(err.Error(), "give --budget 6") {
		t.Errorf("budget 5 with a profile and a soak: %v; want a refusal naming 6 (3 at the edge, 3 for the proof)", err)
	}
}
