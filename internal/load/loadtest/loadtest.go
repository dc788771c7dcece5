// Package loadtest holds what the load packages' tests share: loopback
// servers and ports that are closed when the test ends. It is for tests
// only; nothing else imports it.
package loadtest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Server starts a loopback HTTP server that is closed when the test ends.
func Server(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(func() {
		s.CloseClientConnections()
		s.Close()
	})
	return s
}

// Listen listens on a free loopback port until the test ends.
func Listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// ClosedPort returns a loopback port nobody listens on.
func ClosedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return p
}
