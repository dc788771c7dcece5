//go:build linux

package load

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

func TestOptionsOverridePhases(t *testing.T) {
	sc, err := scenario.Load("scenario/testdata/seed001.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	ps := applyOptions(sc.Phases, Options{Duration: 3 * time.Second, Workers: 9, Warmup: time.Second})
	// The set-up phase (one worker uploads every file once) is counted, not
	// timed: --warmup must not cut it short, so a timed warm-up is added
	// after it.
	if len(ps) != 3 {
		t.Fatalf("%d phases, want set-up, warm-up, measure", len(ps))
	}
	if ps[0].Record || ps[0].Iterations == 0 || ps[0].Workers != 1 {
		t.Errorf("set-up phase changed: %+v", ps[0])
	}
	if ps[1].Record || ps[1].Duration != time.Second || ps[1].Iterations != 0 {
		t.Errorf("warm-up phase: %+v", ps[1])
	}
	if ps[2].Duration != 3*time.Second || ps[2].Iterations != 0 || ps[2].Workers != 9 || !ps[2].Record {
		t.Errorf("measured phase: %+v", ps[2])
	}
	if sc.Phases[1].Workers != 4 {
		t.Error("options changed the scenario itself")
	}
	if ps := applyOptions(sc.Phases, Options{Warmup: -1}); len(ps) != 2 || ps[0].Record || !ps[1].Record {
		t.Errorf("negative warm-up must drop timed warm-ups only, kept %d phases", len(ps))
	}
	one, _ := scenario.SingleURL("GET", "http://127.0.0.1:1/")
	ps = applyOptions(one.Phases, Options{Rate: 70, Warmup: 2 * time.Second})
	if len(ps) != 2 || ps[0].Record || ps[0].Rate != 70 || ps[0].Duration != 2*time.Second || !ps[1].Record || ps[1].Rate != 70 {
		t.Errorf("added warm-up: %+v %+v", ps[0], ps[1])
	}
}

// Saturate runs the measured phase's requests closed-loop and reports the
// capacity reached.
func TestSaturate(t *testing.T) {
	noLeak(t)
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(time.Millisecond) })
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.Duration = 10, time.Second })
	r, err := Saturate(context.Background(), sc, Options{}, 4, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// 4 workers × ~1 ms per request: far above the phase's 10 req/s.
	if r.Model != scenario.Closed || r.Phase != "saturation" || r.Throughput < 500 || r.Success != 1 {
		t.Errorf("saturation: model %s throughput %.0f success %v", r.Model, r.Throughput, r.Success)
	}
}

// A generator held back (here by a cap of 2 in flight against a 100 ms
// server, 20 req/s at most) says so: late and dropped requests, latency
// from the intended times.
func TestLateAndDroppedWhenCapped(t *testing.T) {
	noLeak(t)
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(100 * time.Millisecond) })
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.Duration, p.MaxInflight = 100, time.Second, 2 })
	r := mustRun(t, sc, Options{Drain: 300 * time.Millisecond}).Total
	t.Logf("requests %d late %d dropped %d p50 %v", r.Requests, r.Late, r.Dropped, r.Latencies.P50)
	if r.Requests+r.Dropped != 100 || r.Dropped < 60 || r.Late < 10 {
		t.Errorf("requests %d late %d dropped %d: want 100 scheduled, most dropped, the sent ones late", r.Requests, r.Late, r.Dropped)
	}
	if r.TargetRate != 100 || r.Latencies.P50 < 200*time.Millisecond {
		t.Errorf("target %v p50 %v: latency must count from the intended start", r.TargetRate, r.Latencies.P50)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func TestProgressLine(t *testing.T) {
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {})
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.Duration = 50, 1200*time.Millisecond })
	var out syncBuffer
	mustRun(t, sc, Options{Progress: &out})
	got := out.b.String()
	if !strings.Contains(got, "\rmeasure") && !strings.Contains(got, "measure ") || !strings.Contains(got, "requests 60") || !strings.HasSuffix(got, "\n") {
		t.Errorf("progress output %q", got)
	}
}

// A target without a path moves the scenario to another address and keeps
// its base path (jvmfit run gives the app's address this way); a target
// with a path replaces the base path.
func TestTargetKeepsBasePath(t *testing.T) {
	sc, err := scenario.Parse([]byte("base: http://127.0.0.1:9/api\nrequests: {a: {url: /items/1}}\nphases: [{requests: 1}]\n"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	bare, _ := scenario.SingleURL("GET", "http://127.0.0.1:9/x")
	bare.Base = ""
	cases := []struct {
		sc              *scenario.Scenario
		target          string
		addr, firstLine string
	}{
		{sc, "", "127.0.0.1:9", "GET /api/items/1 HTTP/1.1"},
		{sc, "http://127.0.0.1:5", "127.0.0.1:5", "GET /api/items/1 HTTP/1.1"},
		{sc, "http://127.0.0.1:5/", "127.0.0.1:5", "GET /api/items/1 HTTP/1.1"},
		{sc, "http://127.0.0.1:5/v2", "127.0.0.1:5", "GET /v2/items/1 HTTP/1.1"},
		{bare, "http://127.0.0.1:5", "127.0.0.1:5", "GET /x HTTP/1.1"},
	}
	for _, c := range cases {
		pl, err := prepare(context.Background(), c.sc, Options{Base: c.target})
		if err != nil {
			t.Fatalf("target %q: %v", c.target, err)
		}
		w := pl.Wires[0]
		line, _, _ := strings.Cut(string(w.Fixed), "\r\n")
		if w.Addr != c.addr || line != c.firstLine {
			t.Errorf("target %q: dials %s and sends %q, want %s and %q", c.target, w.Addr, line, c.addr, c.firstLine)
		}
	}
}
