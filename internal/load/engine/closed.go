//go:build linux

package engine

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// closedRun is a closed phase in progress: each worker is a task that
// sends its next request when the previous answer arrives (like ab -c).
// Latency counts from the actual send.
type closedRun struct {
	pl         *Plan
	l          *loop
	rec        *record.Recorder
	iterations int64 // per worker; 0 = no limit
	timeout    time.Duration
	end        time.Time // zero: no duration
	hardStop   time.Time // the drain's end: unanswered requests are aborted
	remaining  int64     // requests left, when counted
	counted    bool
}

func (pl *Plan) runClosed(l *loop, p *scenario.Phase, rec *record.Recorder) *phaseRun {
	users := scenario.NewUsers(p, pl.Files, pl.Port, pl.Index)
	start := time.Now()
	c := &closedRun{pl: pl, l: l, rec: rec, iterations: p.Iterations, timeout: pl.timeout(p),
		hardStop: start.Add(100 * 365 * 24 * time.Hour), remaining: p.Requests, counted: p.Requests > 0}
	if p.Duration > 0 {
		c.end = start.Add(p.Duration)
		c.hardStop = c.end.Add(pl.drain())
	}
	for _, u := range users {
		l.spawn(func(t *task) { c.work(t, u) })
	}
	l.run()
	return &phaseRun{start: start, span: time.Since(start)}
}

// work is one worker's loop, until its iterations, the phase's requests or
// its duration run out.
func (c *closedRun) work(t *task, u *scenario.User) {
	cl := newClient(t)
	defer cl.close()
	var buf, scratch []byte
	for it := int64(0); c.iterations <= 0 || it < c.iterations; it++ {
		if c.counted {
			if c.remaining <= 0 {
				return
			}
			c.remaining--
		}
		now := monoNow()
		if (!c.end.IsZero() && !now.Before(c.end)) || c.l.aborted {
			return
		}
		ri, vc := u.Next()
		wr := c.pl.Wires[ri]
		data := wr.Fixed
		if !wr.Static {
			buf = wr.Build(buf[:0], &scratch, &vc)
			data = buf
		}
		if !c.send(cl, ri, wr, data, now) {
			c.pause(t)
		}
	}
}

// send sends one request and records it; false if it never reached the
// server (refused or reset).
func (c *closedRun) send(cl *client, ri int, wr *scenario.Wire, data []byte, now time.Time) bool {
	deadline := now.Add(c.timeout)
	phaseEnd := false
	if deadline.After(c.hardStop) {
		deadline, phaseEnd = c.hardStop, true
	}
	status, in, err := cl.do(wr, data, deadline)
	done := monoNow()
	o := record.Outcome{Req: ri, Status: status, In: in, Out: int64(len(data)), Done: done, Latency: done.Sub(now)}
	classify(&o, wr, err, phaseEnd, c.timeout)
	c.rec.Add(&o)
	return o.Status != 0 || o.RecordLatency
}

// pause follows a refused or reset connection: the service is down or
// restarting, and retrying in a tight loop would only burn the CPU it
// needs to come back.
func (c *closedRun) pause(t *task) {
	pause := monoNow().Add(connErrorPause)
	if !c.end.IsZero() && c.end.Before(pause) {
		pause = c.end
	}
	t.sleepUntil(pause)
}

const connErrorPause = 10 * time.Millisecond
