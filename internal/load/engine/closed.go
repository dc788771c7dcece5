//go:build linux

package engine

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// runClosed runs each worker as a task that sends its next request when
// the previous answer arrives (like ab -c). Latency counts from the actual
// send.
func (pl *Plan) runClosed(l *loop, p *scenario.Phase, rec *record.Recorder) *phaseRun {
	users := scenario.NewUsers(p, pl.Files, pl.Port, pl.Index)
	timeout := pl.timeout(p)
	start := time.Now()
	var end time.Time
	if p.Duration > 0 {
		end = start.Add(p.Duration)
	}
	far := start.Add(100 * 365 * 24 * time.Hour)
	hardStop := far
	if !end.IsZero() {
		hardStop = end.Add(pl.drain())
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
				ri, vc := u.Next()
				wr := pl.Wires[ri]
				data := wr.Fixed
				if !wr.Static {
					buf = wr.Build(buf[:0], &scratch, &vc)
					data = buf
				}
				deadline := now.Add(timeout)
				phaseEnd := false
				if deadline.After(hardStop) {
					deadline, phaseEnd = hardStop, true
				}
				status, in, err := cl.do(wr, data, deadline)
				done := monoNow()
				o := record.Outcome{Req: ri, Status: status, In: in, Out: int64(len(data)), Done: done, Latency: done.Sub(now)}
				classify(&o, wr, err, phaseEnd, timeout)
				rec.Add(&o)
				if o.Status == 0 && !o.RecordLatency {
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

const connErrorPause = 10 * time.Millisecond
