//go:build linux

package engine

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// rawServer answers each request on a connection with the next scripted
// raw response; "CLOSE" closes the connection instead.
func rawServer(t *testing.T, script ...string) string {
	t.Helper()
	l := loadtest.Listen(t)
	go func() {
		i := 0
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			br := bufio.NewReader(c)
			for i < len(script) {
				// read one request head (no bodies in these tests)
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						c.Close()
						goto next
					}
					if line == "\r\n" {
						break
					}
				}
				if script[i] == "CLOSE" {
					i++
					c.Close()
					goto next
				}
				c.Write([]byte(script[i]))
				i++
				if strings.Contains(script[i-1], "Connection: close") || !strings.Contains(script[i-1], "\r\n\r\n") {
					c.Close()
					goto next
				}
			}
			c.Close()
		next:
		}
	}()
	return l.Addr().String()
}

func TestRawResponses(t *testing.T) {
	addr := rawServer(t,
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: t\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbye",
		"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
		"CLOSE", // an idle keep-alive connection closed by the server: retried
		"HTTP/1.0 200 OK\r\n\r\nunframed body until close",
	)
	sc, _ := scenario.SingleURL("GET", "http://"+addr+"/")
	w := scenario.NewWire(sc.Requests[0], addr, "")
	want := []struct {
		status int
		in     int
	}{
		{200, 43}, {200, 0}, {201, 0}, {204, 0}, {200, 0}, {404, 0}, {200, 0},
	}
	onLoop(t, func(tk *task) {
		cl := newClient(tk)
		defer cl.close()
		for i, wt := range want {
			status, in, err := cl.do(w, w.Fixed, time.Now().Add(5*time.Second))
			if err != nil || status != wt.status {
				t.Errorf("response %d: status %d err %v, want %d", i, status, err, wt.status)
				return
			}
			if wt.in > 0 && int(in) != wt.in {
				t.Errorf("response %d: %d bytes in, want %d", i, in, wt.in)
			}
		}
	})
}

func TestMalformedAndTruncated(t *testing.T) {
	for _, resp := range []string{"garbage\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"} {
		addr := rawServer(t, resp)
		sc, _ := scenario.SingleURL("GET", "http://"+addr+"/")
		w := scenario.NewWire(sc.Requests[0], addr, "")
		var err error
		onLoop(t, func(tk *task) {
			cl := newClient(tk)
			defer cl.close()
			_, _, err = cl.do(w, w.Fixed, time.Now().Add(5*time.Second))
		})
		if err == nil {
			t.Errorf("%q: no error", resp)
		} else if k := ErrorKey(err); k != "malformed HTTP response" && k != "connection closed by the server mid-response" {
			t.Errorf("%q: error %q", resp, k)
		}
	}
	if ErrorKey(io.EOF) != "connection closed by the server before answering" {
		t.Error(ErrorKey(io.EOF))
	}
}
