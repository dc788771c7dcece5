package engine

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Schedules are values: their times are checked here without a network
// or a clock.
func TestScheduleConstant(t *testing.T) {
	s := NewSchedule(&scenario.Phase{Model: scenario.Open, Rate: 200, Duration: 2 * time.Second})
	if s.Count != 400 || s.Length != 2*time.Second || s.Pacer.Mean() != 200 {
		t.Errorf("count %d length %v mean %g, want 400 in 2s at 200/s", s.Count, s.Length, s.Pacer.Mean())
	}
	if at := s.Pacer.At(100); at != 500*time.Millisecond {
		t.Errorf("request 100 at %v, want 500ms", at)
	}
	// A request count shorter than the duration ends the phase early.
	s = NewSchedule(&scenario.Phase{Model: scenario.Open, Rate: 100, Duration: 10 * time.Second, Requests: 50})
	if s.Count != 50 || s.Length != 500*time.Millisecond {
		t.Errorf("count %d length %v, want 50 in 500ms", s.Count, s.Length)
	}
	s = NewSchedule(&scenario.Phase{Model: scenario.Open, Rate: 40, Requests: 10})
	if s.Count != 10 || s.Length != 250*time.Millisecond {
		t.Errorf("requests only: count %d length %v, want 10 in 250ms", s.Count, s.Length)
	}
}

// A ramp sends the integral of its rate: 0→200 req/s over 2 s is 200
// requests, more of them late in the phase; At inverts Due.
func TestScheduleRamp(t *testing.T) {
	s := NewSchedule(&scenario.Phase{Model: scenario.Open, RampFrom: 0, RampTo: 200, Duration: 2 * time.Second})
	if s.Count != 200 || s.Pacer.Mean() != 100 {
		t.Fatalf("ramp: count %d mean %g, want 200 at 100/s on average", s.Count, s.Pacer.Mean())
	}
	if first, second := s.Pacer.At(50), s.Pacer.At(100)-s.Pacer.At(50); first <= second {
		t.Errorf("ramp does not speed up: first 50 in %v, next 50 in %v", first, second)
	}
	for _, i := range []int64{1, 50, 199} {
		if d := s.Pacer.Due(s.Pacer.At(i)); d < float64(i)-1e-6 || d > float64(i)+1e-6 {
			t.Errorf("Due(At(%d)) = %g", i, d)
		}
	}
	flat := Linear{From: 50, To: 50, Length: time.Second}
	if flat.At(25) != 500*time.Millisecond {
		t.Errorf("a flat ramp: request 25 at %v, want 500ms", flat.At(25))
	}
}
