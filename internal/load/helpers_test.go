//go:build linux

package load

import (
	"bufio"
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// single builds the one-URL scenario with one phase shaped by set.
func single(t *testing.T, url string, set func(p *scenario.Phase)) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.SingleURL("GET", url)
	if err != nil {
		t.Fatal(err)
	}
	set(sc.Phases[0])
	return sc
}

func mustRun(t *testing.T, sc *scenario.Scenario, opts Options) *record.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, sc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// noLeak fails if goroutines started during the test outlive it.
func noLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= before+2 {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Errorf("goroutines: %d before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// retry runs a timing-sensitive check up to n times and fails only if every
// attempt fails; each attempt is logged.
func retry(t *testing.T, n int, attempt func() (ok bool, msg string)) {
	t.Helper()
	var msgs []string
	for i := 1; i <= n; i++ {
		ok, msg := attempt()
		t.Logf("attempt %d: %s", i, msg)
		if ok {
			return
		}
		msgs = append(msgs, msg)
	}
	t.Errorf("all %d attempts failed: %q", n, msgs)
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }

// watchStalls measures how long this process could not run, so that a
// timing test can tell a slow generator from a stopped host. A CFS quota
// or a hypervisor's steal stops every thread of the process at once; a
// goroutine that sleeps 1 ms at a time sees the same gaps the generator
// does. (Locking it to its own thread would cost the generator a P on
// every wake-up: 0.3 ms more p50 in TestAccuracyFixedServiceTime.) The returned func stops the watch and gives
// the sum, over every gap, of the part longer than over.
func watchStalls(over time.Duration) (stop func() time.Duration) {
	quit, done := make(chan struct{}), make(chan time.Duration)
	go func() {
		var excess time.Duration
		last := time.Now()
		for {
			select {
			case <-quit:
				done <- excess
				return
			default:
			}
			time.Sleep(time.Millisecond)
			now := time.Now()
			if gap := now.Sub(last) - time.Millisecond; gap > over {
				excess += gap - over
			}
			last = now
		}
	}()
	return func() time.Duration { close(quit); return <-done }
}
