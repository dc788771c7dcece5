package experiment

import (
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// line writes one line of progress.
func (s *Session) line(format string, a ...any) {
	if s.Progress != nil {
		fmt.Fprintf(s.Progress, format+"\n", a...)
	}
}

// progressLine counts a finished trial and says so: "[3/10] cpus=1
// memory=256Mi rate=100 jvm=default: OK (1.2s start, 100req/s) in 31s,
// ETA 3m0s". A search does not know its total: "[3] ...".
func (s *Session) progressLine(what string, r *trial.Result, reused bool, took time.Duration) {
	c := &s.count
	c.done++
	tail := " in " + took.Round(100*time.Millisecond).String()
	if reused {
		c.reused++
		tail = " (from the store: an identical trial)"
	} else {
		c.ran++
		c.spent += took
	}
	n := fmt.Sprintf("[%d]", c.done)
	if c.total > 0 {
		n = fmt.Sprintf("[%d/%d]", c.done, c.total)
		tail += ", ETA " + c.left()
	}
	heap := ""
	if r.HeapMaxBytes > 0 {
		heap = ", max heap " + size.Format(r.HeapMaxBytes)
	}
	s.line("%s %s: %s%s%s%s", n, what, r.Cell(), heap, tail, s.inFlight())
}

// left estimates the time left from the trials actually run: reused ones
// take no time, so a plain items-per-second rate would be far too hopeful
// right after a resume.
func (c *counter) left() string {
	if c.ran == 0 {
		return "?"
	}
	d := c.spent / time.Duration(c.ran) * time.Duration(max(c.total-c.done, 0))
	return d.Round(time.Second).String()
}
