package load

import (
	"context"
	"math"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// job is one scheduled request handed to a sender.
type job struct {
	req      int
	intended time.Time
	data     []byte
	buf      *[]byte
}

// runOpen sends requests on a fixed schedule. One dispatcher goroutine keeps
// the schedule and hands each request to an idle sender; when none is idle
// it starts another (up to the in-flight cap), so a slow server never slows
// the schedule. Latency counts from the intended start.
func (pl *plan) runOpen(ctx context.Context, p *Phase, rec *recorder, reg *registry) *phaseRun {
	sch := newSchedule(p)
	users := newVusers(p, pl.sc.Files, pl.port, pl.index)
	lateAfter := p.LateAfter
	if lateAfter <= 0 {
		lateAfter = DefaultLateAfter
	}
	maxInflight := p.MaxInflight
	if maxInflight <= 0 {
		maxInflight = DefaultMaxInflight
	}
	timeout := pl.timeout(p)

	// Start a little ahead so that the first senders exist before the
	// first intended time.
	start := time.Now().Add(time.Millisecond)
	end := start.Add(sch.length)
	// Past this point a request is no longer "late" but out of its phase.
	sendBy := end.Add(lateAfter)
	hardStop := end.Add(pl.drain)

	jobs := make(chan job)
	var wg sync.WaitGroup
	senders := 0
	spawn := func() {
		id := senders
		senders++
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := newClient(reg)
			defer cl.close()
			for j := range jobs {
				pl.sendOpen(ctx, cl, rec, id, j, lateAfter, timeout, hardStop)
			}
		}()
	}
	spawn()

	sleep := time.NewTimer(time.Hour)
	defer sleep.Stop()
	endTimer := time.NewTimer(time.Until(sendBy))
	defer endTimer.Stop()

	var sent int64
dispatch:
	for i := int64(0); i < sch.count; i++ {
		at := start.Add(sch.offset(i))
		if time.Until(at) > 0 {
			if !waitUntil(ctx, sleep, at) {
				break dispatch
			}
		} else if time.Now().After(sendBy) {
			break
		}
		ri, vc := users[i%int64(len(users))].next()
		data, buf := pl.wires[ri].bytes(&vc)
		j := job{req: ri, intended: at, data: data, buf: buf}
		select {
		case jobs <- j:
			runtime.Gosched()
		default:
			if senders < maxInflight {
				spawn()
			}
			select {
			case jobs <- j:
			case <-endTimer.C:
				release(buf)
				break dispatch
			case <-ctx.Done():
				release(buf)
				break dispatch
			}
		}
		sent++
	}
	stopped := time.Now()
	close(jobs)
	wg.Wait()
	// The rate is over the scheduled window: sends that fell behind show
	// as late or dropped, never as a silently lower rate. A cancelled run
	// is judged on the part of the schedule it lived through.
	span, due := sch.length, sch.count
	if ctx.Err() != nil && stopped.Before(end) {
		span = max(stopped.Sub(start), time.Millisecond)
		due = min(sch.count, int64(math.Ceil(sch.cum(span.Seconds())-1e-9)))
	}
	return &phaseRun{start: start, span: span, dropped: max(0, due-sent), target: sch.mean()}
}

func (pl *plan) sendOpen(ctx context.Context, cl *client, rec *recorder, id int, j job, lateAfter, timeout time.Duration, hardStop time.Time) {
	now := time.Now()
	deadline := now.Add(timeout)
	phaseEnd := false
	if deadline.After(hardStop) {
		deadline, phaseEnd = hardStop, true
	}
	w := pl.wires[j.req]
	status, in, err := cl.do(ctx, w, j.data, deadline)
	done := time.Now()
	o := outcome{req: j.req, status: status, in: in, out: int64(len(j.data)), done: done,
		latency: done.Sub(j.intended), late: now.Sub(j.intended) > lateAfter}
	release(j.buf)
	classify(&o, w.req, err, phaseEnd, timeout)
	rec.add(id, &o)
}

// waitUntil sleeps until at. Go's timers can fire up to 1 ms late when the
// runtime is idle (its poller sleeps in whole milliseconds), which at low
// rates would add up to 1 ms to every measured latency; so the last stretch
// is a nanosleep, which the kernel ends within tens of µs.
func waitUntil(ctx context.Context, t *time.Timer, at time.Time) bool {
	for {
		d := time.Until(at)
		if d <= 0 {
			return true
		}
		if d > 2*time.Millisecond {
			t.Reset(d - time.Millisecond)
			select {
			case <-t.C:
			case <-ctx.Done():
				return false
			}
			continue
		}
		ts := syscall.NsecToTimespec(int64(d))
		syscall.Nanosleep(&ts, nil)
	}
}
