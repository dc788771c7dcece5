package load

import (
	"math"
	"time"
)

// schedule gives the intended start of each request of an open phase:
// request i starts when the integral of the rate reaches i.
type schedule struct {
	from, to float64 // req/s at the start and the end (equal for a constant rate)
	length   time.Duration
	count    int64 // requests in the phase
}

func newSchedule(p *Phase) schedule {
	s := schedule{from: p.Rate, to: p.Rate}
	if p.RampTo > 0 {
		s.from, s.to = p.RampFrom, p.RampTo
	}
	switch {
	case p.Duration > 0:
		s.length = p.Duration
		s.count = int64(math.Ceil(s.cum(p.Duration.Seconds()) - 1e-9))
		if p.Requests > 0 && p.Requests < s.count {
			s.count = p.Requests
			s.length = s.offset(s.count)
		}
	default: // requests only, constant rate (validated)
		s.count = p.Requests
		s.length = time.Duration(float64(p.Requests) / s.from * float64(time.Second))
	}
	return s
}

// cum is the number of requests due by t seconds.
func (s schedule) cum(t float64) float64 {
	if s.from == s.to || s.length <= 0 {
		return s.from * t
	}
	a := (s.to - s.from) / (2 * s.length.Seconds())
	return s.from*t + a*t*t
}

func (s schedule) offset(i int64) time.Duration {
	n := float64(i)
	if s.from == s.to || s.length <= 0 {
		return time.Duration(n / s.from * float64(time.Second))
	}
	a := (s.to - s.from) / (2 * s.length.Seconds())
	t := (-s.from + math.Sqrt(s.from*s.from+4*a*n)) / (2 * a)
	return time.Duration(t * float64(time.Second))
}

// mean is the phase's average target rate.
func (s schedule) mean() float64 { return (s.from + s.to) / 2 }
