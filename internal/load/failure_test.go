//go:build linux

package load

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// A server that stops answering mid-run (the JVM froze or was killed):
// the run ends on time, the unanswered requests are errors, nothing leaks.
func TestServerHangsMidRun(t *testing.T) {
	noLeak(t)
	var dead atomic.Bool
	release := make(chan struct{})
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {
		if dead.Load() {
			<-release
			return
		}
		w.Write([]byte("ok"))
	})
	t.Cleanup(func() { close(release) })
	time.AfterFunc(time.Second, func() { dead.Store(true) })
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.Duration = 100, 3*time.Second })
	start := time.Now()
	r := mustRun(t, sc, Options{Drain: 500 * time.Millisecond}).Total
	took := time.Since(start)
	t.Logf("took %v; %d requests, success %.2f, errors %v", took, r.Requests, r.Success, r.Errors)
	if took > 3*time.Second+500*time.Millisecond+time.Second {
		t.Errorf("run took %v, want ≈ 3.5s (duration + drain)", took)
	}
	if r.Requests < 290 || r.Success > 0.5 || r.Success < 0.2 {
		t.Errorf("%d requests, success %.2f: want ≈300 with about a third answered", r.Requests, r.Success)
	}
	if len(r.Errors) == 0 || !strings.Contains(r.Errors[0], "no answer before the phase ended") {
		t.Errorf("errors %v", r.Errors)
	}
	if r.Latencies.Max < time.Second {
		t.Errorf("max latency %v: unanswered requests must show in the tail", r.Latencies.Max)
	}
}

// A server that dies (its port closes): refused connections are counted,
// the run still ends on time, in both models.
func TestServerDiesMidRun(t *testing.T) {
	noLeak(t)
	for _, model := range []string{scenario.Open, scenario.Closed} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(time.Millisecond) // keeps the closed loop from hogging the CPUs
			w.Write([]byte("ok"))
		})}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
		time.AfterFunc(700*time.Millisecond, func() { srv.Close() })
		sc := single(t, "http://"+l.Addr().String()+"/", func(p *scenario.Phase) {
			p.Model, p.Rate, p.Workers, p.Duration = model, 200, 2, 2*time.Second
		})
		start := time.Now()
		r := mustRun(t, sc, Options{}).Total
		took := time.Since(start)
		t.Logf("%s: took %v; %d requests, success %.2f, errors %v", model, took, r.Requests, r.Success, r.Errors)
		if took > 3500*time.Millisecond {
			t.Errorf("%s: run took %v, want ≈ 2s", model, took)
		}
		if r.Success == 0 || r.Success == 1 || len(r.Errors) == 0 || r.StatusCodes["0"] == 0 {
			t.Errorf("%s: success %.2f errors %v codes %v", model, r.Success, r.Errors, r.StatusCodes)
		}
	}
}

// Cancelling the context stops a run at once and returns what was measured.
func TestCancelStopsRun(t *testing.T) {
	noLeak(t)
	release := make(chan struct{})
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	t.Cleanup(func() { close(release) })
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.Duration = 50, time.Minute })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	res, err := Run(ctx, sc, Options{})
	if err != context.Canceled || res == nil || len(res.Phases) != 1 {
		t.Fatalf("err %v res %+v", err, res)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("cancelled run took %v", took)
	}
	if r := res.Total; r.Dropped > 1 || r.Rate < 40 || r.Rate > 60 {
		t.Errorf("cancelled run: dropped %d rate %.1f, want the part of the schedule it lived", r.Dropped, r.Rate)
	}
	if res.Total.Requests == 0 || res.Total.Success != 0 {
		t.Errorf("cancelled run: %d requests, success %v", res.Total.Requests, res.Total.Success)
	}
}

// Unexpected statuses are errors, listed with their counts.
func TestExpectedStatuses(t *testing.T) {
	var n atomic.Int64
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%4 == 0 {
			w.WriteHeader(503)
		}
	})
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Model, p.Requests = scenario.Closed, 100 })
	r := mustRun(t, sc, Options{}).Total
	if r.Requests != 100 || r.StatusCodes["200"] != 75 || r.StatusCodes["503"] != 25 || r.Success != 0.75 {
		t.Errorf("requests %d codes %v success %v", r.Requests, r.StatusCodes, r.Success)
	}
	if len(r.Errors) != 1 || r.Errors[0] != "25× GET "+s.URL+"/: unexpected status 503" {
		t.Errorf("errors %q", r.Errors)
	}
	sc.Requests[0].Expect = []int{200, 503}
	if r := mustRun(t, sc, Options{}).Total; r.Success != 1 {
		t.Errorf("expect [200, 503]: success %v", r.Success)
	}
}
