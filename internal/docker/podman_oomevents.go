//go:build linux

package docker

import (
	"encoding/binary"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// oomEvents counts a v1 memory cgroup's OOM notifications through an
// eventfd registered in its cgroup.event_control. It backs the oom_kill
// counter where the engine reports no OOM kill (Podman 4): the counter can
// be read only while the cgroup exists, which the engine removes a few
// hundred ms after the kill, and it is sampled; the eventfd keeps its
// count after the removal, and nothing has to be read in time.
//
// The kernel adds 1 to the eventfd when the group runs out of memory,
// before its OOM killer picks a victim, so by the time the container has
// exited every OOM is counted. It adds 1 more when the group is removed,
// some time after the rmdir. Hence: a count read while the directory still
// exists is all OOMs; once it is gone, one of the count may be the
// removal's.
type oomEvents struct {
	dir   string
	fd    int
	total int64
}

// oomSettle bounds the wait for a removed group's last signal (ooms); it
// came 15 to 28 ms after the rmdir began in 20 removals at load average 22.
const oomSettle = 500 * time.Millisecond

// watchOOM registers for the OOM notifications of a container's cgroup
// where the engine does not report OOM kills (Podman 4); nil elsewhere:
// Docker sets OOMKilled itself (containerd watches the same notifications).
func (e Engine) watchOOM(dir string) *oomEvents {
	if !e.IsPodman() {
		return nil
	}
	w, err := watchOOMEvents(dir)
	if err != nil {
		return nil // the sampled oom_kill counter remains
	}
	return w
}

// watchOOMEvents registers for the OOM notifications of the v1 memory
// cgroup dir.
func watchOOMEvents(dir string) (*oomEvents, error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	ctl, err := os.Open(dir + "/memory.oom_control")
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	// The kernel keeps what it needs of oom_control; the eventfd stays ours.
	err = os.WriteFile(dir+"/cgroup.event_control", fmt.Appendf(nil, "%d %d", fd, ctl.Fd()), 0)
	ctl.Close()
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("cannot register for the OOM events of %s: %w", dir, err)
	}
	return &oomEvents{dir: dir, fd: fd}, nil
}

// ooms is how many OOMs the group surely had; call it once the container
// has exited. With the group gone and a count of exactly 1, that 1 is
// either the removal's or an OOM's whose removal signal is still on its
// way: it waits up to settle for a second signal.
func (w *oomEvents) ooms(settle time.Duration) int64 {
	if w == nil {
		return 0
	}
	w.drain()
	// Stat after the read: if the group is still there, nothing read can
	// be its removal's signal.
	if _, err := os.Stat(w.dir); err == nil {
		return w.total
	}
	deadline := time.Now().Add(settle)
	for w.total == 1 {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		pfd := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}}
		_, err := unix.Poll(pfd, int(left.Milliseconds())+1)
		w.drain()
		if err != nil && err != unix.EINTR {
			break
		}
	}
	return max(w.total-1, 0)
}

// drain adds what the eventfd holds (reading resets it) to total.
func (w *oomEvents) drain() {
	buf := make([]byte, 8)
	if n, err := unix.Read(w.fd, buf); err == nil && n == 8 {
		w.total += int64(binary.NativeEndian.Uint64(buf))
	}
}

// close releases the eventfd; the kernel drops the registration when it
// sees it closed.
func (w *oomEvents) close() {
	if w != nil {
		unix.Close(w.fd)
	}
}
