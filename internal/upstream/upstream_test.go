package upstream

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLatencyParsesAndSamplesEachDistribution(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		in, str  string
		lo, hi   time.Duration // every sample within
		mlo, mhi time.Duration // the samples' mean within
	}{
		{"", "fixed 0s", 0, 0, 0, 0},
		{"fixed 2ms", "fixed 2ms", 2 * time.Millisecond, 2 * time.Millisecond, 2 * time.Millisecond, 2 * time.Millisecond},
		{"uniform 100us 300us", "uniform 100µs 300µs", 100 * time.Microsecond, 300 * time.Microsecond, 190 * time.Microsecond, 210 * time.Microsecond},
		{"exponential 200us", "exponential 200µs", 0, time.Hour, 190 * time.Microsecond, 210 * time.Microsecond},
	} {
		l, err := ParseLatency(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if l.String() != c.str {
			t.Errorf("%q reads back as %q, want %q", c.in, l.String(), c.str)
		}
		if back, err := ParseLatency(l.String()); err != nil || back != l {
			t.Errorf("%q does not read back: %+v %v", l.String(), back, err)
		}
		var sum time.Duration
		const n = 20000
		for range n {
			d := l.Sample(r)
			if d < c.lo || d > c.hi {
				t.Fatalf("%q: sample %s outside [%s, %s]", c.in, d, c.lo, c.hi)
			}
			sum += d
		}
		if m := sum / n; m < c.mlo || m > c.mhi {
			t.Errorf("%q: mean %s, want within [%s, %s]", c.in, m, c.mlo, c.mhi)
		}
	}
	for _, bad := range []string{"gauss 1ms", "fixed", "uniform 1ms", "fixed -1ms", "exponential soon"} {
		if _, err := ParseLatency(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestServerAnswersItsBytesAfterItsDelay(t *testing.T) {
	s, err := Listen(0, Config{ResponseBytes: 3000, Latency: Latency{Dist: "fixed", A: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	defer s.Close()
	t0 := time.Now()
	resp, err := http.Post("http://127.0.0.1:"+itoa(s.Port())+"/x", "text/plain", strings.NewReader("ignored"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if took := time.Since(t0); took < 20*time.Millisecond {
		t.Errorf("answered in %s, before the 20ms delay", took)
	}
	if resp.StatusCode != 200 || len(b) != 3000 || resp.Header.Get("Content-Length") != "3000" {
		t.Errorf("%d, %d bytes, length %q", resp.StatusCode, len(b), resp.Header.Get("Content-Length"))
	}
}

func TestMainPrintsItsPortAndRefusesBadFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"--latency", "soon"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `latency "soon"`) {
		t.Errorf("exit %d, %q", code, errb.String())
	}
	if code := Main([]string{"--size", "lots"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `--size "lots"`) {
		t.Errorf("exit %d, %q", code, errb.String())
	}
	for _, args := range [][]string{{"stray"}, {"--bogus"}} {
		errb.Reset()
		if code := Main(args, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, code, errb.String())
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A wait under a millisecond is not rounded up to one: Go's own timers
// wake through epoll_wait's whole milliseconds, so time.Sleep(100µs) on an
// idle runtime takes 1 ms or more every time. Half of the waits may run
// long on a loaded machine; a rounding wait has none under 1 ms.
func TestShortWaitIsNotRoundedToAMillisecond(t *testing.T) {
	const n = 50
	short := 0
	for range n {
		t0 := time.Now()
		wait(100 * time.Microsecond)
		took := time.Since(t0)
		if took < 100*time.Microsecond {
			t.Fatalf("waited %v of 100µs", took)
		}
		if took < 900*time.Microsecond {
			short++
		}
	}
	if short < n/5 {
		t.Errorf("%d of %d waits of 100µs took under 900µs: the wait is rounded up to the millisecond", short, n)
	}
}
