//go:build linux

package engine

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// The loop's promise: an answer costs one read. Reading before the answer
// is there (EAGAIN) is what made a goroutine per user on Go's netpoller
// cost more CPU than ab.
func TestOneReadPerAnswer(t *testing.T) {
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	addr := strings.TrimPrefix(s.URL, "http://")
	sc, _ := scenario.SingleURL("GET", s.URL+"/")
	w := scenario.NewWire(sc.Requests[0], addr, "")
	l, err := newLoop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	const users, each = 8, 250
	answered := 0
	for range users {
		l.spawn(func(tk *task) {
			cl := newClient(tk)
			defer cl.close()
			for range each {
				status, _, err := cl.do(w, w.Fixed, time.Now().Add(5*time.Second))
				if err != nil || status != 200 {
					t.Errorf("status %d err %v", status, err)
					return
				}
				answered++
			}
		})
	}
	l.run()
	st := l.stats
	t.Logf("%d answers: %d reads, %d EAGAIN, %d waits", answered, st.reads, st.eagain, st.waits)
	if answered != users*each {
		t.Fatalf("%d answers, want %d", answered, users*each)
	}
	if st.eagain > int64(answered)/100 || st.reads > int64(answered)*101/100 {
		t.Errorf("%d reads (%d EAGAIN) for %d answers: want one read per answer", st.reads, st.eagain, answered)
	}
}

// An answer that arrives while its task is busy elsewhere is read when
// the task comes back: the edge is kept, not lost.
func TestEdgeWhileNotWaiting(t *testing.T) {
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	addr := strings.TrimPrefix(s.URL, "http://")
	onLoop(t, func(tk *task) {
		sk := dialOn(t, tk, addr)
		if sk == nil {
			return
		}
		defer sk.close()
		sk.deadline = time.Now().Add(5 * time.Second)
		if _, err := sk.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			t.Error(err)
			return
		}
		// The answer comes now; the loop polls while this task sleeps.
		tk.sleepUntil(time.Now().Add(100 * time.Millisecond))
		start := time.Now()
		buf := make([]byte, 4096)
		n, err := sk.Read(buf)
		if err != nil || !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200") {
			t.Errorf("read %q, %v", buf[:n], err)
		}
		if d := time.Since(start); d > 50*time.Millisecond {
			t.Errorf("read took %v: the answer's edge was lost", d)
		}
	})
}

// A silent server: the read ends at the deadline with a timeout error.
func TestReadDeadline(t *testing.T) {
	l := loadtest.Listen(t)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	onLoop(t, func(tk *task) {
		sk := dialOn(t, tk, l.Addr().String())
		if sk == nil {
			return
		}
		defer sk.close()
		start := time.Now()
		sk.deadline = start.Add(200 * time.Millisecond)
		_, err := sk.Read(make([]byte, 10))
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("err %v, want a timeout", err)
		}
		if d := time.Since(start); d < 190*time.Millisecond || d > time.Second {
			t.Errorf("timed out after %v, want 200ms", d)
		}
	})
}

// Cancelling the run ends a wait at once.
func TestAbortEndsWaits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l, err := newLoop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	var woke []wake
	for range 3 {
		l.spawn(func(tk *task) { woke = append(woke, tk.wait(nil, time.Now().Add(time.Minute))) })
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	l.run()
	if d := time.Since(start); d > time.Second {
		t.Errorf("loop ended %v after start, want ≈100ms", d)
	}
	if len(woke) != 3 || woke[0] != wokeAborted || woke[2] != wokeAborted {
		t.Errorf("waits ended with %v, want 3 × aborted", woke)
	}
}

func TestDialRefused(t *testing.T) {
	onLoop(t, func(tk *task) {
		_, err := tk.l.dial(tk, "127.0.0.1:"+loadtest.ClosedPort(t), time.Now().Add(5*time.Second))
		if k := ErrorKey(err); k != "dial: connection refused" {
			t.Errorf("error %q (%v), want dial: connection refused", k, err)
		}
	})
}

// A write larger than the socket buffers waits for room, and everything
// arrives.
func TestLargeWrite(t *testing.T) {
	l := loadtest.Listen(t)
	got := make(chan int64, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			got <- -1
			return
		}
		defer c.Close()
		n, _ := io.Copy(io.Discard, c)
		got <- n
	}()
	const size = 32 << 20
	lp := onLoop(t, func(tk *task) {
		sk := dialOn(t, tk, l.Addr().String())
		if sk == nil {
			return
		}
		defer sk.close()
		sk.deadline = time.Now().Add(10 * time.Second)
		if n, err := sk.Write(make([]byte, size)); n != size || err != nil {
			t.Errorf("wrote %d, %v", n, err)
		}
	})
	if n := <-got; n != size {
		t.Errorf("server got %d bytes, want %d", n, size)
	}
	if lp.stats.waits == 0 {
		t.Error("the write never waited for room: the test no longer covers that path")
	}
}

// Data and the end of the stream in one edge: after the data, the next
// read returns EOF at once instead of waiting for an edge that never comes.
func TestDataThenEOFInOneEdge(t *testing.T) {
	l := loadtest.Listen(t)
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Write([]byte("hello"))
		c.Close()
	}()
	onLoop(t, func(tk *task) {
		sk := dialOn(t, tk, l.Addr().String())
		if sk == nil {
			return
		}
		defer sk.close()
		tk.sleepUntil(time.Now().Add(100 * time.Millisecond)) // both have arrived
		sk.deadline = time.Now().Add(2 * time.Second)
		buf := make([]byte, 64)
		n, err := sk.Read(buf)
		if string(buf[:n]) != "hello" || err != nil {
			t.Errorf("read %q, %v", buf[:n], err)
		}
		start := time.Now()
		if _, err := sk.Read(buf); err != io.EOF {
			t.Errorf("second read: %v, want EOF", err)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("EOF took %v", d)
		}
	})
}

// IPv6 loopback and names from /etc/hosts dial like IPv4 addresses.
func TestDialIPv6AndNames(t *testing.T) {
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })}
	go srv.Serve(l)
	defer srv.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	v4 := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	_, port4, _ := net.SplitHostPort(strings.TrimPrefix(v4.URL, "http://"))
	for _, addr := range []string{"[::1]:" + port, "localhost:" + port4} {
		sc, _ := scenario.SingleURL("GET", "http://"+addr+"/")
		w := scenario.NewWire(sc.Requests[0], addr, "")
		onLoop(t, func(tk *task) {
			cl := newClient(tk)
			defer cl.close()
			if status, _, err := cl.do(w, w.Fixed, time.Now().Add(5*time.Second)); status != 200 || err != nil {
				t.Errorf("%s: status %d, %v", addr, status, err)
			}
		})
	}
}

// dialOn connects a task's socket to addr, failing the test (nil) if it
// cannot.
func dialOn(t *testing.T, tk *task, addr string) *sock {
	t.Helper()
	sk, err := tk.l.dial(tk, addr, time.Now().Add(5*time.Second))
	if err != nil {
		t.Error(err)
		return nil
	}
	return sk
}
