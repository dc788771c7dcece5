//go:build linux

package load

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/loadtest"
	"github.com/jvmfit/jvmfit/internal/load/scenario"
)

// 1000 req/s for 5 s against a fast server: achieved within 1%, and no
// send late or dropped except those a stop of the whole process explains.
// Sends due while the host does not run this process (a CFS quota, a
// hypervisor's steal) go out late, and reporting them is right; a
// scheduling bug makes sends late while the process runs.
func TestRateAchieved(t *testing.T) {
	var served atomic.Int64
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.Write([]byte("ok"))
	})
	const rate = 1000
	sc := single(t, s.URL+"/fast", func(p *scenario.Phase) { p.Rate, p.Duration = rate, 5*time.Second })
	retry(t, 3, func() (bool, string) {
		served.Store(0)
		stalls := watchStalls(scenario.DefaultLateAfter / 2)
		res := mustRun(t, sc, Options{Warmup: 500 * time.Millisecond})
		stalled := stalls()
		r := res.Phases[1]
		// A stall of g delays the sends due in its first g - 10 ms past
		// the late threshold; counting from half the threshold leaves
		// room for the wake-up after it.
		excused := int64(stalled.Seconds()*rate) + 5
		msg := fmt.Sprintf("requests %d rate %.2f late %d dropped %d (stalled %v excuses %d) success %.4f served %d p99 %v",
			r.Requests, r.Rate, r.Late, r.Dropped, stalled.Round(time.Millisecond), excused, r.Success, served.Load(), r.Latencies.P99)
		ok := r.Rate >= 990 && r.Rate <= 1010 && r.Late+r.Dropped <= excused && r.Success == 1 &&
			r.Requests+r.Dropped == 5000 && served.Load() == r.Requests+res.Phases[0].Requests
		return ok, msg
	})
}

// A ramp sends the integral of its rate: 0→200 req/s over 2 s is 200
// requests (its times are checked in engine's TestScheduleRamp).
func TestRampSchedule(t *testing.T) {
	s := loadtest.Server(t, func(w http.ResponseWriter, r *http.Request) {})
	sc := single(t, s.URL+"/", func(p *scenario.Phase) { p.Rate, p.RampFrom, p.RampTo, p.Duration = 0, 0, 200, 2*time.Second })
	r := mustRun(t, sc, Options{}).Total
	if r.Requests < 199 || r.Requests > 201 || r.Dropped != 0 {
		t.Fatalf("ramp sent %d (dropped %d), want 200", r.Requests, r.Dropped)
	}
}
