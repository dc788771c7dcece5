//go:build linux

package engine

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// timer ends the loop's epoll wait at an open schedule's next send time,
// on time. epoll_pwait2's own timeout is an hrtimer with the thread's
// timer slack: the kernel may end the wait anywhere up to 50 µs (the
// default slack, or 0.1% of the wait if more) after the deadline, and an
// idle CPU takes the late end. That lateness was most of what an open
// schedule at a few hundred req/s added to every request's latency
// (docs/load.md, "Its own lateness"). A timerfd's expiry has no slack: it
// is registered on the loop's epoll, armed for the earliest sleeper's
// deadline, and its expiry is just one more event that ends the wait.
type timer struct {
	fd    int
	armed time.Time // the deadline it is set for; zero: none
}

func newTimer() (*timer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("load generator: timerfd_create: %w", err)
	}
	return &timer{fd: fd}, nil
}

// arm sets the timer to expire at at; now is a fresh clock reading. Go's
// monotonic clock is CLOCK_MONOTONIC, so the relative time from now ends
// no earlier than at. Arming it again for the same time costs nothing.
func (t *timer) arm(at, now time.Time) error {
	if at.Equal(t.armed) {
		return nil
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(max(at.Sub(now), 1)))}
	if err := unix.TimerfdSettime(t.fd, 0, &spec, nil); err != nil {
		return fmt.Errorf("load generator: timerfd_settime: %w", err)
	}
	t.armed = at
	return nil
}

func (t *timer) close() { unix.Close(t.fd) }
