//go:build linux

package engine

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// A generator whose loop is blocked sends late, and says so: the sends
// due while another task holds the loop for 100 ms go out up to 100 ms
// late, their lateness shows in send_lateness, and their latency, counted
// from the intended time, includes it.
func TestBlockedLoopShowsAsSendLateness(t *testing.T) {
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	sc, err := scenario.SingleURL("GET", s.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	p := sc.Phases[0]
	p.Rate, p.Duration = 1000, time.Second
	pl := &Plan{Wires: []*scenario.Wire{scenario.NewWire(sc.Requests[0], strings.TrimPrefix(s.URL, "http://"), "")}}
	l, err := newLoop(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	rec := record.NewRecorder([]string{"get"})
	l.spawn(func(tk *task) {
		tk.sleepUntil(time.Now().Add(300 * time.Millisecond))
		time.Sleep(100 * time.Millisecond) // holds the loop: nothing else runs
	})
	pl.runOpen(l, p, rec)

	var res record.Result
	res.Add(&record.Phase{Name: "m", Model: scenario.Open, Record: true, Rec: rec, Span: time.Second, Elapsed: time.Second})
	r := res.Phases[0]
	late := r.SendLateness
	if late == nil {
		t.Fatal("no send_lateness")
	}
	t.Logf("lateness p50 %v p90 %v p99 %v max %v; latency p99 %v max %v", late.P50, late.P90, late.P99, late.Max,
		r.Latencies.P99, r.Latencies.Max)
	// About 100 of the 1000 sends fall in the block, late by 0-100 ms.
	if late.Max < 90*time.Millisecond || late.P99 < 80*time.Millisecond {
		t.Errorf("lateness p99 %v max %v, want the 100 ms block (≥ 80 ms, ≥ 90 ms)", late.P99, late.Max)
	}
	if late.P50 > 20*time.Millisecond {
		t.Errorf("lateness p50 %v: most sends were not in the block", late.P50)
	}
	if r.Latencies.Max < late.Max || r.Latencies.P99 < late.P99 {
		t.Errorf("latency p99 %v max %v below the lateness (%v, %v): it must count from the intended time",
			r.Latencies.P99, r.Latencies.Max, late.P99, late.Max)
	}
}
