// Package upstream is the HTTP upstream jvmfit runs itself for a trial
// (services: kind http, docs/services.md): a loopback server that answers
// every request with the same bytes after a delay drawn from a latency
// distribution. It runs as `jvmfit upstream` in a cgroup of its own, so
// its CPUs and memory are neither the app's nor the load generator's.
package upstream

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Latency is the delay before each answer: fixed D, uniform between Min
// and Max, or exponential with mean Mean (the memoryless service time of
// a queueing model).
type Latency struct {
	Dist string        `json:"dist"` // "fixed", "uniform", "exponential"
	A    time.Duration `json:"a"`    // fixed: the delay; uniform: min; exponential: mean
	B    time.Duration `json:"b,omitempty"`
}

// ParseLatency reads "fixed 2ms", "uniform 100us 1ms", "exponential
// 200us", or "0" / "" for no delay.
func ParseLatency(s string) (Latency, error) {
	f := strings.Fields(s)
	if len(f) == 0 || (len(f) == 1 && f[0] == "0") {
		return Latency{Dist: "fixed"}, nil
	}
	want := map[string]int{"fixed": 1, "uniform": 2, "exponential": 1}
	n, ok := want[f[0]]
	if !ok || len(f)-1 != n {
		return Latency{}, fmt.Errorf("latency %q: write \"fixed 1ms\", \"uniform 100us 2ms\" or \"exponential 300us\"", s)
	}
	var d [2]time.Duration
	for i, v := range f[1:] {
		x, err := time.ParseDuration(v)
		if v == "0" {
			x, err = 0, nil
		}
		if err != nil || x < 0 {
			return Latency{}, fmt.Errorf("latency %q: %q is not a duration (e.g. 250us, 2ms)", s, v)
		}
		d[i] = x
	}
	if f[0] == "uniform" && d[1] < d[0] {
		return Latency{}, fmt.Errorf("latency %q: the maximum is below the minimum", s)
	}
	return Latency{Dist: f[0], A: d[0], B: d[1]}, nil
}

// String is the form ParseLatency reads.
func (l Latency) String() string {
	switch l.Dist {
	case "uniform":
		return fmt.Sprintf("uniform %s %s", l.A, l.B)
	case "exponential":
		return fmt.Sprintf("exponential %s", l.A)
	default:
		return fmt.Sprintf("fixed %s", l.A)
	}
}

// Sample draws one delay.
func (l Latency) Sample(r *rand.Rand) time.Duration {
	switch l.Dist {
	case "uniform":
		return l.A + time.Duration(r.Int64N(int64(l.B-l.A)+1))
	case "exponential":
		return time.Duration(r.ExpFloat64() * float64(l.A))
	default:
		return l.A
	}
}

// Mean is the distribution's mean.
func (l Latency) Mean() time.Duration {
	if l.Dist == "uniform" {
		return (l.A + l.B) / 2
	}
	return l.A
}
