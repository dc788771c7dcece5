//go:build linux

package engine

import (
	"context"
	"io"
	"net"
	"net/netip"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// sock is a non-blocking TCP socket on a loop, registered once for
// edge-triggered reads and writes. The loop notes each edge in readable and
// writable, so a task waits only when the socket has nothing for it: after
// sending a request it sleeps until the answer is there, and then reads it
// in one call. An edge that comes while nobody waits is kept, never lost.
type sock struct {
	l        *loop
	t        *task // the one task that uses it
	fd       int
	readable bool
	writable bool
	hup      bool // the peer closed or the socket failed: reads never wait again
	wantOut  bool // its task waits to write, not to read
	deadline time.Time
}

// event records what epoll reported and wakes the task if it waits on this
// socket and can go on.
func (s *sock) event(ev uint32) {
	if ev&(syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		s.readable = true
	}
	if ev&(syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		s.hup = true
	}
	if ev&(syscall.EPOLLOUT|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		s.writable = true
	}
	if t := s.t; t.waiting && t.on == s && ((s.wantOut && s.writable) || (!s.wantOut && s.readable)) {
		s.l.wake(t, wokeReady)
	}
}

// await suspends t until the socket is ready for the direction, or returns
// the deadline's or the cancellation's error.
func (s *sock) await(out bool, op string) error {
	s.wantOut = out
	switch s.t.wait(s, s.deadline) {
	case wokeDeadline:
		return &net.OpError{Op: op, Net: "tcp", Err: os.ErrDeadlineExceeded}
	case wokeAborted:
		return errAborted
	}
	return nil
}

// epollET is syscall.EPOLLET as the uint32 that EpollEvent holds.
const epollET = 1 << 31

// dial connects to addr ("host:port") without blocking the loop.
func (l *loop) dial(t *task, addr string, deadline time.Time) (*sock, error) {
	sa, err := l.resolve(addr)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: err}
	}
	family := syscall.AF_INET
	if _, v6 := sa.(*syscall.SockaddrInet6); v6 {
		family = syscall.AF_INET6
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, syscall.IPPROTO_TCP)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", err)}
	}
	// Like Go's net package: requests go out whole, never held back by Nagle.
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	s := &sock{l: l, t: t, fd: fd, deadline: deadline}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLOUT | syscall.EPOLLRDHUP | epollET, Fd: int32(fd)}
	if err := syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		syscall.Close(fd)
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("epoll_ctl", err)}
	}
	for fd >= len(l.socks) {
		l.socks = append(l.socks, nil)
	}
	l.socks[fd] = s
	fail := func(call string, err error) (*sock, error) {
		s.close()
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError(call, err)}
	}
	switch err := syscall.Connect(fd, sa); err {
	case nil:
	case syscall.EINPROGRESS, syscall.EINTR:
		for !s.writable {
			if err := s.await(true, "dial"); err != nil {
				s.close()
				return nil, err
			}
		}
		if e, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ERROR); err != nil {
			return fail("getsockopt", err)
		} else if e != 0 {
			return fail("connect", syscall.Errno(e))
		}
	default:
		return fail("connect", err)
	}
	return s, nil
}

// resolve looks a host up once per loop; loopback names come from
// /etc/hosts, so this seldom leaves the process.
func (l *loop) resolve(addr string) (syscall.Sockaddr, error) {
	if sa, ok := l.addrs[addr]; ok {
		return sa, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	pn, err := net.LookupPort("tcp", port)
	if err != nil {
		return nil, err
	}
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", host)
	if err != nil {
		return nil, err
	}
	// Prefer IPv4, as "localhost" usually means 127.0.0.1 to the server.
	ip := ips[0]
	for _, a := range ips {
		if a.Unmap().Is4() {
			ip = a
			break
		}
	}
	var sa syscall.Sockaddr
	if ip = ip.Unmap(); ip.Is4() {
		sa = &syscall.SockaddrInet4{Port: pn, Addr: ip.As4()}
	} else {
		sa = &syscall.SockaddrInet6{Port: pn, Addr: ip.As16(), ZoneId: zoneID(ip)}
	}
	l.addrs[addr] = sa
	return sa, nil
}

func zoneID(ip netip.Addr) uint32 {
	if z := ip.Zone(); z != "" {
		if ifi, err := net.InterfaceByName(z); err == nil {
			return uint32(ifi.Index)
		}
	}
	return 0
}

// Read reads what is there, waiting first only when the last read left
// the socket empty.
func (s *sock) Read(p []byte) (int, error) {
	for {
		if !s.readable {
			if err := s.await(false, "read"); err != nil {
				return 0, err
			}
		}
		n, err := read(s.fd, p)
		s.l.stats.reads++
		switch {
		case err == syscall.EAGAIN:
			s.l.stats.eagain++
			s.readable = false
			continue
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", err)}
		case n == 0:
			return 0, io.EOF
		}
		if n < len(p) && !s.hup {
			// Drained: the next byte comes with a new edge. Not so the end
			// of the stream, whose edge may have come with the last bytes.
			s.readable = false
		}
		return n, nil
	}
}

// Write sends all of p, waiting for room when the socket buffer is full.
func (s *sock) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := send(s.fd, p[done:])
		switch {
		case err == syscall.EAGAIN:
			s.writable = false
			if err := s.await(true, "write"); err != nil {
				return done, err
			}
			continue
		case err == syscall.EINTR:
			continue
		case err != nil:
			return done, &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", err)}
		}
		done += n
	}
	return done, nil
}

// send is write(2) without SIGPIPE: a server that closed the connection
// gives EPIPE, counted as an error, not a signal. It and read are raw
// syscalls, not announced to Go's scheduler: on a non-blocking socket they
// never block, and announcing them costs more than the call.
func send(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)),
		syscall.MSG_NOSIGNAL, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// close closes the socket; the kernel drops it from the epoll set.
func (s *sock) close() {
	if s.fd < 0 {
		return
	}
	s.l.socks[s.fd] = nil
	syscall.Close(s.fd)
	s.fd = -1
}

func read(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
