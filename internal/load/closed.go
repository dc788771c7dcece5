package load

import (
	"errors"
	"net"
	"strconv"
	"time"
)

// runClosed runs each worker as a task that sends its next request when
// the previous answer arrives (like ab -c). Latency counts from the actual
// send.
func (pl *plan) runClosed(l *loop, p *Phase, rec *recorder) *phaseRun {
	users := newVusers(p, pl.sc.Files, pl.port, pl.index)
	timeout := pl.timeout(p)
	start := time.Now()
	var end time.Time
	if p.Duration > 0 {
		end = start.Add(p.Duration)
	}
	far := start.Add(100 * 365 * 24 * time.Hour)
	hardStop := far
	if !end.IsZero() {
		hardStop = end.Add(pl.drain)
	}
	remaining := p.Requests
	counted := p.Requests > 0

	for _, u := range users {
		l.spawn(func(t *task) {
			cl := newClient(t)
			defer cl.close()
			var buf, scratch []byte
			for it := int64(0); p.Iterations <= 0 || it < p.Iterations; it++ {
				if counted {
					if remaining <= 0 {
						return
					}
					remaining--
				}
				now := monoNow()
				if (!end.IsZero() && !now.Before(end)) || l.aborted {
					return
				}
				ri, vc := u.next()
				wr := pl.wires[ri]
				data := wr.fixed
				if !wr.static {
					buf = wr.build(buf[:0], &scratch, &vc)
					data = buf
				}
				deadline := now.Add(timeout)
				phaseEnd := false
				if deadline.After(hardStop) {
					deadline, phaseEnd = hardStop, true
				}
				status, in, err := cl.do(wr, data, deadline)
				done := monoNow()
				o := outcome{req: ri, status: status, in: in, out: int64(len(data)), done: done, latency: done.Sub(now)}
				classify(&o, wr.req, err, phaseEnd, timeout)
				rec.add(&o)
				if o.status == 0 && !o.recordLatency {
					// Refused or reset: the service is down or restarting.
					// Retrying in a tight loop would only burn the CPU it
					// needs to come back.
					pause := monoNow().Add(connErrorPause)
					if !end.IsZero() && end.Before(pause) {
						pause = end
					}
					t.sleepUntil(pause)
				}
			}
		})
	}
	l.run()
	return &phaseRun{start: start, span: time.Since(start)}
}

// classify fills in success, the error text and whether the latency is
// recorded: it is for every answer and every timeout (a slow server must
// show in the tail), not for requests that never reached the server.
func classify(o *outcome, r *Request, err error, phaseEnd bool, timeout time.Duration) {
	if err == nil {
		o.recordLatency = true
		if r.expected(o.status) {
			o.ok = true
			return
		}
		o.errKey = "unexpected status " + strconv.Itoa(o.status)
		return
	}
	o.status = 0
	if errors.Is(err, errAborted) {
		// Sent but unanswered when the run was cancelled: like a timeout,
		// its wait so far belongs in the tail.
		o.recordLatency = true
		o.errKey = errAborted.Error()
		return
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		o.recordLatency = true
		if phaseEnd {
			o.errKey = "no answer before the phase ended (drain included)"
		} else {
			o.errKey = "timeout after " + timeout.String()
		}
		return
	}
	o.errKey = errorKey(err)
}

const connErrorPause = 10 * time.Millisecond
