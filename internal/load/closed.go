package load

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// runClosed runs each worker as a loop that sends its next request when the
// previous answer arrives (like ab -c). Latency counts from the actual send.
func (pl *plan) runClosed(ctx context.Context, p *Phase, rec *recorder, reg *registry) *phaseRun {
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
	var remaining atomic.Int64
	remaining.Store(p.Requests)
	counted := p.Requests > 0

	var wg sync.WaitGroup
	for w := range users {
		wg.Add(1)
		go func(u *vuser) {
			defer wg.Done()
			cl := newClient(reg)
			defer cl.close()
			var buf, scratch []byte
			for it := int64(0); p.Iterations <= 0 || it < p.Iterations; it++ {
				if counted && remaining.Add(-1) < 0 {
					return
				}
				now := time.Now()
				if (!end.IsZero() && !now.Before(end)) || ctx.Err() != nil {
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
				status, in, err := cl.do(ctx, wr, data, deadline)
				done := time.Now()
				o := outcome{req: ri, status: status, in: in, out: int64(len(data)), done: done, latency: done.Sub(now)}
				classify(&o, wr.req, err, phaseEnd, timeout)
				rec.add(u.worker, &o)
				if o.status == 0 && !o.recordLatency {
					// Refused or reset: the service is down or restarting.
					// Retrying in a tight loop would only burn the CPU it
					// needs to come back.
					pause(ctx, end, connErrorPause)
				}
			}
		}(users[w])
	}
	wg.Wait()
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

func pause(ctx context.Context, end time.Time, d time.Duration) {
	if !end.IsZero() {
		d = min(d, time.Until(end))
	}
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
