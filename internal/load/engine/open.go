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

// sender is a task that sends the jobs it is handed; has == false after a
// wake-up tells it to stop.
type sender struct {
	t   *task
	job job
	has bool
}

// openRun is an open phase in progress. A dispatcher task keeps the
// schedule and hands each request to an idle sender task; when none is
// idle it starts another (up to the in-flight cap), so a slow server never
// slows the schedule. Latency counts from the intended start. Everything
// here runs on the loop's goroutine.
type openRun struct {
	pl          *Plan
	l           *loop
	rec         *record.Recorder
	sch         Schedule
	users       []*scenario.User
	lateAfter   time.Duration
	timeout     time.Duration
	maxInflight int
	start, end  time.Time
	sendBy      time.Time // past this a request is out of its phase, not late
	hardStop    time.Time // the drain's end: unanswered requests are aborted

	idle       []*sender
	senders    int
	finished   bool
	dispatcher *task
	starved    bool // the dispatcher waits for an idle sender
	sent       int64
	stopped    time.Time
}

// runOpen sends the phase's requests on its schedule.
func (pl *Plan) runOpen(l *loop, p *scenario.Phase, rec *record.Recorder) *phaseRun {
	o := &openRun{pl: pl, l: l, rec: rec, sch: NewSchedule(p),
		users:       scenario.NewUsers(p, pl.Files, pl.Port, pl.Index),
		lateAfter:   p.LateAfter,
		timeout:     pl.timeout(p),
		maxInflight: p.MaxInflight,
	}
	if o.lateAfter <= 0 {
		o.lateAfter = scenario.DefaultLateAfter
	}
	if o.maxInflight <= 0 {
		o.maxInflight = scenario.DefaultMaxInflight
	}
	// Start a little ahead so that the first senders exist before the
	// first intended time.
	o.start = time.Now().Add(time.Millisecond)
	o.end = o.start.Add(o.sch.Length)
	o.sendBy = o.end.Add(o.lateAfter)
	o.hardStop = o.end.Add(pl.drain())
	l.spawn(o.dispatch)
	l.run()
	return o.result()
}

// dispatch is the dispatcher task: it sends every request of the schedule
// at its time, or as soon as it can when behind.
func (o *openRun) dispatch(t *task) {
	o.dispatcher = t
	defer func() {
		o.stopped = time.Now()
		o.finished = true
		for _, s := range o.idle {
			o.l.wake(s.t, wokeReady)
		}
	}()
	for i := int64(0); i < o.sch.Count; i++ {
		at := o.start.Add(o.sch.Pacer.At(i))
		behind := !monoNow().Before(at)
		if !behind {
			if !t.sleepUntil(at) {
				return
			}
		} else if monoNow().After(o.sendBy) || o.l.aborted {
			return
		}
		ri, vc := o.users[i%int64(len(o.users))].Next()
		data, buf := o.pl.Wires[ri].Bytes(&vc)
		if !o.handOff(t, job{req: ri, intended: at, data: data, buf: buf}) {
			return
		}
		o.sent++
		if behind {
			t.yieldNow() // let the senders start before the next one
		}
	}
}

// handOff gives j to an idle sender, or to a new one; at the in-flight
// cap it waits for a sender to come back. False: the phase ended first.
func (o *openRun) handOff(t *task, j job) bool {
	for len(o.idle) == 0 && o.senders >= o.maxInflight {
		o.starved = true
		woke := t.wait(nil, o.sendBy)
		o.starved = false
		if woke != wokeReady {
			scenario.Release(j.buf)
			return false
		}
	}
	if n := len(o.idle); n > 0 {
		s := o.idle[n-1]
		o.idle = o.idle[:n-1]
		s.job, s.has = j, true
		o.l.wake(s.t, wokeReady)
	} else {
		o.spawn(j)
	}
	return true
}

// spawn starts a sender task with its first job.
func (o *openRun) spawn(first job) {
	o.senders++
	s := &sender{job: first, has: true}
	o.l.spawn(func(t *task) {
		s.t = t
		cl := newClient(t)
		defer cl.close()
		for s.has {
			s.has = false
			o.send(cl, s.job)
			if o.finished {
				return
			}
			o.idle = append(o.idle, s)
			if o.starved {
				o.l.wake(o.dispatcher, wokeReady)
			}
			t.wait(nil, time.Time{})
		}
	})
}

func (o *openRun) send(cl *client, j job) {
	now := monoNow()
	deadline := now.Add(o.timeout)
	phaseEnd := false
	if deadline.After(o.hardStop) {
		deadline, phaseEnd = o.hardStop, true
	}
	w := o.pl.Wires[j.req]
	status, in, err := cl.do(w, j.data, deadline)
	done := monoNow()
	lateness := now.Sub(j.intended)
	out := record.Outcome{Req: j.req, Status: status, In: in, Out: int64(len(j.data)), Done: done,
		Latency: done.Sub(j.intended), Late: lateness > o.lateAfter, Paced: true, Lateness: lateness}
	scenario.Release(j.buf)
	classify(&out, w, err, phaseEnd, o.timeout)
	o.rec.Add(&out)
}

// result judges the rate over the scheduled window: sends that fell
// behind show as late or dropped, never as a silently lower rate. A
// cancelled run is judged on the part of the schedule it lived through.
func (o *openRun) result() *phaseRun {
	span, due := o.sch.Length, o.sch.Count
	if o.l.aborted && o.stopped.Before(o.end) {
		span = max(o.stopped.Sub(o.start), time.Millisecond)
		due = min(o.sch.Count, int64(math.Ceil(o.sch.Pacer.Due(span)-1e-9)))
	}
	return &phaseRun{start: o.start, span: span, dropped: max(0, due-o.sent), target: o.sch.Pacer.Mean()}
}
