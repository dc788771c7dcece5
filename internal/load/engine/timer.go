//go:build linux

package engine

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// timer wakes the loop for an open schedule's next send, so that the send
// goes out on time: its lateness is part of the request's latency, which
// counts from the intended time. Two things made the loop late, and
// bench/latency.sh showed both (docs/load.md, "Its own lateness"):
//
//   - epoll_pwait2's timeout is an hrtimer with the thread's timer slack:
//     the kernel may end the wait up to 50 µs (the default slack, or 0.1%
//     of the wait if more) after the deadline, and an idle CPU takes the
//     late end. A timerfd's expiry has no slack. It is registered on the
//     loop's epoll, and its expiry is one more event that ends the wait.
//   - Waking a thread whose CPU went idle takes time: 25-45 µs on the
//     virtual machines this was measured on, whatever the timer. So the
//     timer is set that much early (the lateness of its recent expiries,
//     averaged), and the loop polls without waiting for the rest. The
//     early part is at most a tenth of the wait, so the spinning costs at
//     most a tenth of the time the loop would sleep.
type timer struct {
	fd     int
	due    time.Time     // the deadline it keeps; zero: none
	wakeAt time.Time     // when it expires: due less the margin
	late   time.Duration // how late the loop ran after recent expiries
}

// maxMargin bounds how early the timer wakes the loop.
const maxMargin = 200 * time.Microsecond

func newTimer() (*timer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("load generator: timerfd_create: %w", err)
	}
	return &timer{fd: fd}, nil
}

// keep makes the timer keep due; now is a fresh clock reading. It says
// whether the loop may wait (the timer ends the wait) or should poll
// without waiting because the timer's early part has begun.
func (t *timer) keep(due, now time.Time) (wait bool, err error) {
	if !due.Equal(t.due) {
		margin := min(t.late, due.Sub(now)/10, maxMargin)
		wakeAt := due.Add(-margin)
		// Go's monotonic clock is CLOCK_MONOTONIC, so a relative time
		// from now expires no earlier than wakeAt.
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(max(wakeAt.Sub(now), 1)))}
		if err := unix.TimerfdSettime(t.fd, 0, &spec, nil); err != nil {
			t.due = time.Time{}
			return false, fmt.Errorf("load generator: timerfd_settime: %w", err)
		}
		t.due, t.wakeAt = due, wakeAt
	}
	return now.Before(t.wakeAt), nil
}

// expired notes an expiry seen at now, after a poll that waited: how late
// the loop ran after it sets the next margins.
func (t *timer) expired(now time.Time) {
	if t.due.IsZero() || now.Before(t.wakeAt) {
		return // an earlier arming's expiry, seen late
	}
	late := min(now.Sub(t.wakeAt), maxMargin)
	t.late += (late - t.late) / 8
}

func (t *timer) close() { unix.Close(t.fd) }
