package engine

import (
	"math"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// Pacer is the shape of an open phase's rate over time: when each request
// is due. It is a plain value, so tests drive it without a network or a
// clock.
type Pacer interface {
	// Due is how many requests are due t after the start: the integral of
	// the rate, a real number.
	Due(t time.Duration) float64
	// At is the intended start of request i (0-based) after the start:
	// the time at which Due reaches i.
	At(i int64) time.Duration
	// Mean is the average rate in req/s.
	Mean() float64
}

// Constant is a fixed rate in req/s.
type Constant struct{ Rate float64 }

func (c Constant) Due(t time.Duration) float64 { return c.Rate * t.Seconds() }

func (c Constant) At(i int64) time.Duration {
	return time.Duration(float64(i) / c.Rate * float64(time.Second))
}

func (c Constant) Mean() float64 { return c.Rate }

// Linear ramps the rate from From to To req/s over Length.
type Linear struct {
	From, To float64
	Length   time.Duration
}

// accel is the rate's change per second, in req/s².
func (l Linear) accel() float64 { return (l.To - l.From) / l.Length.Seconds() }

func (l Linear) Due(t time.Duration) float64 {
	s := t.Seconds()
	return l.From*s + l.accel()/2*s*s
}

func (l Linear) At(i int64) time.Duration {
	a := l.accel()
	if a == 0 {
		return Constant{l.From}.At(i)
	}
	// Solve From·s + a/2·s² = i for s.
	s := (-l.From + math.Sqrt(l.From*l.From+2*a*float64(i))) / a
	return time.Duration(s * float64(time.Second))
}

func (l Linear) Mean() float64 { return (l.From + l.To) / 2 }

// Schedule is an open phase's plan: its pacer, how many requests it sends
// and how long it lasts.
type Schedule struct {
	Pacer  Pacer
	Count  int64
	Length time.Duration
}

// NewSchedule is the schedule of an open phase (validated: a rate or ramp,
// and a duration or a request count).
func NewSchedule(p *scenario.Phase) Schedule {
	var pc Pacer = Constant{p.Rate}
	if p.RampTo > 0 {
		pc = Linear{From: p.RampFrom, To: p.RampTo, Length: p.Duration}
	}
	s := Schedule{Pacer: pc}
	switch {
	case p.Duration > 0:
		s.Length = p.Duration
		s.Count = int64(math.Ceil(pc.Due(p.Duration) - 1e-9))
		if p.Requests > 0 && p.Requests < s.Count {
			s.Count = p.Requests
			s.Length = pc.At(s.Count)
		}
	default: // requests only, constant rate
		s.Count = p.Requests
		s.Length = pc.At(s.Count)
	}
	return s
}
