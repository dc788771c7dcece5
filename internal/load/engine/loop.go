//go:build linux

package engine

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// A phase runs its virtual users as coroutines on one event loop: a single
// goroutine that waits in epoll for every connection's socket and resumes
// the user whose answer arrived. The generator shares the machine with the
// service it measures, and this is the cheapest way to wait that Go allows:
// a goroutine per user on Go's netpoller reads each answer once too early
// (EAGAIN) and hands it between threads, which cost about a quarter more
// CPU per request than ab. Here a request costs one sendto, one read and a
// share of one epoll_pwait2, as in ab and wrk (bench/load.sh, docs/load.md).

// loop is single-threaded: everything but abort runs on its goroutine.
type loop struct {
	ep    int
	wakeR int // read end of a pipe: a cancelled run writes to it
	wakeW int
	socks []*sock // by fd
	tasks []*task
	ready []*task
	spare []*task // the other half of the ready queue
	live  int
	evs   []syscall.EpollEvent
	addrs map[string]syscall.Sockaddr
	// Deadlines: a timed sleep without a socket (an open schedule's next
	// send) is frequent and short, a socket's (a request's timeout) is long
	// and seldom reached, so each kind has its own list and its own
	// earliest time, and the long list is only looked at when its time has
	// come. Zero: no deadline.
	sleepers []*task
	sleepDue time.Time
	sockDue  time.Time
	timer    *timer // ends a wait at sleepDue; nil where timerfd failed

	aborted bool
	stats   loopStats

	stopAbort func() bool
	abortDone chan struct{}
}

// loopStats count syscalls; tests use them to hold the one-read-per-answer
// promise.
type loopStats struct {
	reads, eagain, waits int64
}

// task is one coroutine on the loop.
type task struct {
	l        *loop
	resume   func() (struct{}, bool)
	stop     func()
	yield    func(struct{}) bool
	waiting  bool
	deadline time.Time // zero: none
	woke     wake
	on       *sock // the socket waited on, if any
	listed   bool  // in loop.sleepers
}

type wake uint8

const (
	wokeReady wake = iota
	wokeDeadline
	wokeAborted
)

// newLoop makes a loop that stops every wait once ctx is cancelled.
func newLoop(ctx context.Context) (*loop, error) {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("load generator: epoll_create1: %w", err)
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		syscall.Close(ep)
		return nil, fmt.Errorf("load generator: pipe2: %w", err)
	}
	l := &loop{ep: ep, wakeR: p[0], wakeW: p[1], evs: make([]syscall.EpollEvent, 128),
		addrs: map[string]syscall.Sockaddr{}, abortDone: make(chan struct{})}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(l.wakeR)}
	if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, l.wakeR, &ev); err != nil {
		l.closeFDs()
		return nil, fmt.Errorf("load generator: epoll_ctl: %w", err)
	}
	if tm, err := newTimer(); err == nil {
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN | epollET, Fd: int32(tm.fd)}
		if syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, tm.fd, &ev) == nil {
			l.timer = tm
		} else {
			tm.close() // the wait's own timeout keeps the deadlines, less exactly
		}
	}
	l.stopAbort = context.AfterFunc(ctx, func() {
		defer close(l.abortDone)
		syscall.Write(l.wakeW, []byte{1})
	})
	return l, nil
}

// close releases the loop once every task has ended.
func (l *loop) close() {
	if !l.stopAbort() {
		<-l.abortDone // the pipe must outlive the write
	}
	l.closeFDs()
}

func (l *loop) closeFDs() {
	syscall.Close(l.wakeR)
	syscall.Close(l.wakeW)
	syscall.Close(l.ep)
	if l.timer != nil {
		l.timer.close()
	}
}

// spawn adds a task that runs f; it starts on the loop's next turn.
func (l *loop) spawn(f func(t *task)) {
	t := &task{l: l}
	t.resume, t.stop = iter.Pull(func(yield func(struct{}) bool) {
		t.yield = yield
		f(t)
	})
	l.live++
	l.tasks = append(l.tasks, t)
	l.ready = append(l.ready, t)
}

// run resumes tasks until all have returned.
func (l *loop) run() {
	defer func() {
		for _, t := range l.tasks {
			t.stop() // after a panic, the others end here
		}
	}()
	now := monoNow()
	lastYield := now
	for l.live > 0 {
		batch := l.ready
		l.ready = l.spare[:0]
		for _, t := range batch {
			if _, ok := t.resume(); !ok {
				l.live--
			}
		}
		l.spare = batch[:0]
		if l.live == 0 {
			break
		}
		timeout := l.timeout(now)
		if now.Sub(lastYield) > yieldEvery {
			// Seen to schedule, the loop is not preempted by the runtime,
			// whose monitor thread would otherwise wake every 20 µs.
			runtime.Gosched()
			lastYield = now
		}
		l.poll(timeout)
		now = monoNow()
		l.expire(now)
	}
}

const yieldEvery = 5 * time.Millisecond

// timeout is how long the next poll may wait: 0 with tasks ready, up to
// the earliest deadline otherwise, -1 (no limit) with none. now is from
// before the batch just run, good enough for a socket's deadline (a
// request's timeout, seldom reached); a sleeper's (an open schedule's next
// send) is measured from a fresh reading and kept by the timer (timer.go),
// because a send that goes out late adds its lateness to the request's
// latency.
func (l *loop) timeout(now time.Time) time.Duration {
	if len(l.ready) > 0 {
		return 0
	}
	wait := time.Duration(-1)
	if !l.sockDue.IsZero() {
		wait = max(0, l.sockDue.Sub(now))
	}
	if l.sleepDue.IsZero() {
		return wait
	}
	now = monoNow()
	d := l.sleepDue.Sub(now)
	if d <= 0 {
		return 0
	}
	if l.timer != nil {
		if ok, err := l.timer.keep(l.sleepDue, now); err == nil {
			if !ok {
				return 0 // due within the margin: poll until it is
			}
			return wait
		}
	}
	if wait < 0 {
		return d
	}
	return min(wait, d)
}

// epoch anchors monoNow.
var epoch = time.Now()

// monoNow is time.Now from the monotonic clock alone: one clock read where
// time.Now makes two (it reads the wall clock too). The generator reads the
// clock several times per request, and on this path the reads were the
// largest user-space cost. Its times compare and subtract like time.Now's.
func monoNow() time.Time { return epoch.Add(time.Since(epoch)) }

// poll waits for socket events up to timeout (< 0: no limit) and wakes the
// tasks they concern.
func (l *loop) poll(timeout time.Duration) {
	n, err := epollWait(l.ep, l.evs, timeout)
	if err != nil {
		return // EINTR: the caller loops
	}
	var now time.Time
	for _, e := range l.evs[:n] {
		fd := int(e.Fd)
		if fd == l.wakeR {
			l.abort()
			continue
		}
		if l.timer != nil && fd == l.timer.fd {
			if timeout != 0 && now.IsZero() {
				now = monoNow()
				l.timer.expired(now) // the wake-up's own lateness
			}
			continue
		}
		if fd < len(l.socks) && l.socks[fd] != nil {
			l.socks[fd].event(e.Events)
		}
	}
}

// expire ends the waits whose deadline passed.
func (l *loop) expire(now time.Time) {
	if due(l.sleepDue, now) {
		kept := l.sleepers[:0]
		l.sleepDue = time.Time{}
		for _, t := range l.sleepers {
			switch {
			case !t.waiting || t.on != nil || t.deadline.IsZero():
				t.listed = false // woken some other way
			case !now.Before(t.deadline):
				t.listed = false
				l.wake(t, wokeDeadline)
			default:
				kept = append(kept, t)
				l.sleepDue = earliest(l.sleepDue, t.deadline)
			}
		}
		clear(l.sleepers[len(kept):])
		l.sleepers = kept
	}
	if due(l.sockDue, now) {
		l.sockDue = time.Time{}
		for _, t := range l.tasks {
			if !t.waiting || t.on == nil || t.deadline.IsZero() {
				continue
			}
			if !now.Before(t.deadline) {
				l.wake(t, wokeDeadline)
			} else {
				l.sockDue = earliest(l.sockDue, t.deadline)
			}
		}
	}
}

func due(at, now time.Time) bool { return !at.IsZero() && !now.Before(at) }

// earliest is the earlier of two times, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// abort ends every wait, now and from now on.
func (l *loop) abort() {
	l.aborted = true
	for _, t := range l.tasks {
		if t.waiting {
			l.wake(t, wokeAborted)
		}
	}
}

// wake makes a waiting task ready, saying why its wait ended.
func (l *loop) wake(t *task, why wake) {
	if !t.waiting {
		return
	}
	t.waiting = false
	t.on = nil
	t.woke = why
	l.ready = append(l.ready, t)
}

// wait suspends the task until another wakes it, its socket (if any) is
// ready, the deadline (if not zero) passes, or the run is cancelled.
func (t *task) wait(on *sock, deadline time.Time) wake {
	l := t.l
	if l.aborted {
		return wokeAborted
	}
	t.waiting, t.deadline, t.on = true, deadline, on
	switch {
	case deadline.IsZero():
	case on != nil:
		l.sockDue = earliest(l.sockDue, deadline)
	default:
		if !t.listed {
			t.listed = true
			l.sleepers = append(l.sleepers, t)
		}
		l.sleepDue = earliest(l.sleepDue, deadline)
	}
	l.stats.waits++
	if !t.yield(struct{}{}) {
		// The loop is stopping this task (another one panicked).
		l.aborted = true
		return wokeAborted
	}
	return t.woke
}

// sleepUntil pauses the task; false if the run was cancelled.
func (t *task) sleepUntil(at time.Time) bool {
	return t.wait(nil, at) != wokeAborted
}

// yieldNow lets the other ready tasks run first.
func (t *task) yieldNow() {
	t.waiting, t.deadline = true, time.Time{}
	t.l.wake(t, wokeReady)
	t.yield(struct{}{})
}

// sysEpollPwait2 is the same number on every architecture (Linux 5.11+).
const sysEpollPwait2 = 441

var noPwait2 atomic.Bool

// rawWaitMax bounds the waits that keep Go's P. A wait made as a normal
// syscall lets the runtime hand the P to another thread and take it back
// afterwards, with futex wake-ups both ways: at tens of thousands of waits
// a second that costs more CPU than the HTTP does. A raw wait keeps the P,
// which is cheap while answers arrive every few µs, but stalls the rest of
// the process (a garbage collection waits for it): so a raw wait lasts at
// most this long, and a longer one continues as a normal syscall.
const rawWaitMax = time.Millisecond

// rawWaits is off when the process has one P: a raw wait would then stop
// every other goroutine for its length.
var rawWaits = runtime.GOMAXPROCS(0) > 1

// epollWait waits with nanosecond resolution where the kernel allows
// (epoll_wait's milliseconds would make an open schedule up to 1 ms late).
func epollWait(ep int, evs []syscall.EpollEvent, timeout time.Duration) (int, error) {
	if noPwait2.Load() {
		ms := -1
		if timeout >= 0 {
			ms = int((timeout + time.Millisecond - 1) / time.Millisecond)
		}
		return syscall.EpollWait(ep, evs, ms)
	}
	if !rawWaits {
		return pwait2(ep, evs, timeout, false)
	}
	short := timeout
	if timeout < 0 || timeout > rawWaitMax {
		short = rawWaitMax
	}
	n, err := pwait2(ep, evs, short, true)
	if n > 0 || err != nil || short == timeout {
		return n, err
	}
	if timeout > 0 {
		timeout -= short
	}
	return pwait2(ep, evs, timeout, false)
}

func pwait2(ep int, evs []syscall.EpollEvent, timeout time.Duration, raw bool) (int, error) {
	var ts *syscall.Timespec
	if timeout >= 0 {
		t := syscall.NsecToTimespec(int64(timeout))
		ts = &t
	}
	call := syscall.Syscall6
	if raw {
		call = syscall.RawSyscall6
	}
	n, _, e := call(sysEpollPwait2, uintptr(ep), uintptr(unsafe.Pointer(&evs[0])), uintptr(len(evs)), uintptr(unsafe.Pointer(ts)), 0, 0)
	switch e {
	case 0:
		return int(n), nil
	case syscall.ENOSYS:
		noPwait2.Store(true)
		return 0, syscall.EINTR // the caller polls again, the old way
	}
	return 0, e
}
