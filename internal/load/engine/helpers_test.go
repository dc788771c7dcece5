//go:build linux

package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// server starts a loopback HTTP server that is closed when the test ends.
func server(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(func() {
		s.CloseClientConnections()
		s.Close()
	})
	return s
}

// listenLoopback listens on a free loopback port until the test ends.
func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// closedPort returns a loopback port nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return p
}

// onLoop runs f as the only task of a fresh loop, and checks that the loop
// left no socket open.
func onLoop(t *testing.T, f func(tk *task)) *loop {
	t.Helper()
	l, err := newLoop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	l.spawn(f)
	l.run()
	for fd, s := range l.socks {
		if s != nil {
			t.Errorf("socket %d still open after the loop ended", fd)
		}
	}
	return l
}
