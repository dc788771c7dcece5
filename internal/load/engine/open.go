//go:build linux

package engine

import (
	"math"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// job is one scheduled request handed to a sender.
type job struct {
	req      int
	intended time.Time
	data     []byte
	buf      *[]byte
}

// runOpen sends requests on a fixed schedule. A dispatcher task keeps the
// schedule and hands each request to an idle sender task; when none is idle
// it starts another (up to the in-flight cap), so a slow server never slows
// the schedule. Latency counts from the intended start.
func (pl *Plan) runOpen(l *loop, p *scenario.Phase, rec *record.Recorder) *phaseRun {
	sch := NewSchedule(p)
	users := scenario.NewUsers(p, pl.Files, pl.Port, pl.Index)
	lateAfter := p.LateAfter
	if lateAfter <= 0 {
		lateAfter = scenario.DefaultLateAfter
	}
	maxInflight := p.MaxInflight
	if maxInflight <= 0 {
		maxInflight = scenario.DefaultMaxInflight
	}
	timeout := pl.timeout(p)

	// Start a little ahead so that the first senders exist before the
	// first intended time.
	start := time.Now().Add(time.Millisecond)
	end := start.Add(sch.Length)
	// Past this point a request is no longer "late" but out of its phase.
	sendBy := end.Add(lateAfter)
	hardStop := end.Add(pl.drain())

	// A sender with has == false after a wake-up is told to stop.
	type sender struct {
		t   *task
		job job
		has bool
	}
	var (
		idle       []*sender
		senders    int
		finished   bool
		dispatcher *task
		starved    bool // the dispatcher waits for an idle sender
	)
	spawn := func(first job) {
		senders++
		s := &sender{job: first, has: true}
		l.spawn(func(t *task) {
			s.t = t
			cl := newClient(t)
			defer cl.close()
			for s.has {
				s.has = false
				pl.sendOpen(cl, rec, s.job, lateAfter, timeout, hardStop)
				if finished {
					return
				}
				idle = append(idle, s)
				if starved {
					l.wake(dispatcher, wokeReady)
				}
				t.wait(nil, time.Time{})
			}
		})
	}

	var sent int64
	var stopped time.Time
	l.spawn(func(t *task) {
		dispatcher = t
		defer func() {
			stopped = time.Now()
			finished = true
			for _, s := range idle {
				l.wake(s.t, wokeReady)
			}
		}()
		for i := int64(0); i < sch.Count; i++ {
			at := start.Add(sch.Pacer.At(i))
			behind := !monoNow().Before(at)
			if !behind {
				if !t.sleepUntil(at) {
					return
				}
			} else if monoNow().After(sendBy) || l.aborted {
				return
			}
			ri, vc := users[i%int64(len(users))].Next()
			data, buf := pl.Wires[ri].Bytes(&vc)
			j := job{req: ri, intended: at, data: data, buf: buf}
			for len(idle) == 0 && senders >= maxInflight {
				starved = true
				woke := t.wait(nil, sendBy)
				starved = false
				if woke != wokeReady {
					scenario.Release(buf)
					return
				}
			}
			if n := len(idle); n > 0 {
				s := idle[n-1]
				idle = idle[:n-1]
				s.job, s.has = j, true
				l.wake(s.t, wokeReady)
			} else {
				spawn(j)
			}
			sent++
			if behind {
				t.yieldNow() // let the senders start before the next one
			}
		}
	})
	l.run()
	// The rate is over the scheduled window: sends that fell behind show
	// as late or dropped, never as a silently lower rate. A cancelled run
	// is judged on the part of the schedule it lived through.
	span, due := sch.Length, sch.Count
	if l.aborted && stopped.Before(end) {
		span = max(stopped.Sub(start), time.Millisecond)
		due = min(sch.Count, int64(math.Ceil(sch.Pacer.Due(span)-1e-9)))
	}
	return &phaseRun{start: start, span: span, dropped: max(0, due-sent), target: sch.Pacer.Mean()}
}

func (pl *Plan) sendOpen(cl *client, rec *record.Recorder, j job, lateAfter, timeout time.Duration, hardStop time.Time) {
	now := monoNow()
	deadline := now.Add(timeout)
	phaseEnd := false
	if deadline.After(hardStop) {
		deadline, phaseEnd = hardStop, true
	}
	w := pl.Wires[j.req]
	status, in, err := cl.do(w, j.data, deadline)
	done := monoNow()
	o := record.Outcome{Req: j.req, Status: status, In: in, Out: int64(len(j.data)), Done: done,
		Latency: done.Sub(j.intended), Late: now.Sub(j.intended) > lateAfter}
	scenario.Release(j.buf)
	classify(&o, w, err, phaseEnd, timeout)
	rec.Add(&o)
}
