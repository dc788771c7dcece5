package trial

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
)

// hungListener accepts connections and never answers; it counts them.
func hungListener(t *testing.T) (addr string, accepted *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = new(atomic.Int64)
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range conns {
					c.Close()
				}
				return
			}
			accepted.Add(1)
			conns = append(conns, c) // held open, never written to
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String(), accepted
}

// A readiness URL that accepts and never answers is not-ready at its
// timeout, and each poll has its own timeout: it is polled again and again
// rather than once for the whole ready_timeout.
func TestReadyURLThatNeverAnswers(t *testing.T) {
	addr, accepted := hungListener(t)
	const timeout = 3500 * time.Millisecond
	t0 := time.Now()
	_, rd, _ := waitReady(context.Background(), "http://"+addr+"/health", t0, timeout, appState{})
	took := time.Since(t0)
	if rd != readyTimedOut {
		t.Fatalf("readiness %v, want timed out", rd)
	}
	if took < timeout || took > timeout+readyRequestTimeout {
		t.Errorf("gave up after %v with a %v ready_timeout", took, timeout)
	}
	// One poll per readyRequestTimeout (plus the tick between them).
	if n := accepted.Load(); n < 3 {
		t.Errorf("polled %d times in %v: a hung poll ate the timeout", n, took)
	}
	t.Logf("not ready after %v, %d polls", took.Round(10*time.Millisecond), accepted.Load())
}

// The same through a whole trial: KO not-ready, at the descriptor's
// ready_timeout, with the URL named.
func TestFakeReadyURLThatNeverAnswersIsNotReady(t *testing.T) {
	addr, accepted := hungListener(t)
	f := newFakes(t, func(p *fakeProcess) *record.Report { t.Error("load ran without readiness"); return nil })
	f.app.Ready = "http://" + addr + "/health"
	f.app.ReadyTimeout = 2500 * time.Millisecond
	t0 := time.Now()
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindNotReady || !strings.Contains(r.Failed[0], addr) || !strings.Contains(r.Failed[0], "within 2.5s") ||
		!strings.Contains(r.Failed[0], "(last answer: no answer within 1s)") {
		t.Fatalf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
	if took := time.Since(t0); took > 2500*time.Millisecond+readyRequestTimeout+2*time.Second {
		t.Errorf("the trial took %v", took)
	}
	if accepted.Load() < 2 {
		t.Errorf("polled %d times", accepted.Load())
	}
	f.checkCleanedUp(t, r)
}

// A memory stall before readiness ends the trial at once with its own kind,
// instead of waiting out ready_timeout.
func TestFakeStallBeforeReadyIsMemoryStall(t *testing.T) {
	addr, _ := hungListener(t)
	f := newFakes(t, func(p *fakeProcess) *record.Report { t.Error("load ran without readiness"); return nil })
	f.app.Ready = "http://" + addr + "/health"
	f.app.ReadyTimeout = 60 * time.Second
	go func() {
		for f.sb.procCount() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		f.sb.proc().stallNow("memory usage was pinned at the 64Mi limit for 5s and x")
	}()
	t0 := time.Now()
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	want := "memory stall before it was ready: memory usage was pinned at the 64Mi limit for 5s and x; it was stopped rather than left to hang"
	if r.Verdict != KO || r.Kind != KindMemoryStall || r.Failed[0] != want {
		t.Fatalf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
	if took := time.Since(t0); took > 5*time.Second {
		t.Errorf("took %v: the stall did not end the wait", took)
	}
	if !strings.Contains(r.Line(), "KO memory-stall") {
		t.Errorf("line %q", r.Line())
	}
	f.checkCleanedUp(t, r)
}

// A stall under load cancels the load; the partial load is kept, and it is
// not reported as jvmfit's own error.
func TestFakeStallUnderLoadIsMemoryStall(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		p.stallNow("pinned")
		return nil // the fake load waits for its context: the stall must end it
	})
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindMemoryStall || !strings.HasPrefix(r.Failed[0], "memory stall under load: pinned") {
		t.Fatalf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
	if r.Load == nil || r.Load.Requests != 1 {
		t.Errorf("the partial load is lost: %+v", r.Load)
	}
	f.checkCleanedUp(t, r)
}
