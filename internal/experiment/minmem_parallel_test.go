package experiment

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// monotone is a threshold app that may be called side by side.
type monotone struct {
	threshold int64
	mu        sync.Mutex
	calls     int
}

func (m *monotone) run(_ context.Context, mem int64) (*trial.Result, error) {
	m.mu.Lock()
	m.calls++
	m.mu.Unlock()
	v := trial.KO
	if mem >= m.threshold {
		v = trial.OK
	}
	return &trial.Result{Verdict: v, Spec: trial.Spec{MemoryBytes: mem}}, nil
}

// ceilLog is ⌈log_b g⌉.
func ceilLog(g, b int64) int {
	n := 0
	for v := int64(1); v < g; v *= b {
		n++
	}
	return n
}

// N = 1..8 limits a round give the sequential answer on every threshold
// of a 64 MiB-1 GiB grid of 8 MiB steps, in ⌈log_{N+1} G⌉ rounds (G the
// grid's 122 gaps, the bracket the first round cuts) without repeats:
// three rounds at N = 8.
func TestMinMemParallelRounds(t *testing.T) {
	s := DefaultSearch
	s.Repeats = 0
	gaps := (s.gridHigh()-s.gridLow())/s.Step + 2
	for n := 1; n <= 8; n++ {
		s.Parallel = n
		for th := int64(60); th <= 1030; th += 5 {
			seq, err := MinMem(context.Background(), Search{Min: s.Min, Max: s.Max, Step: s.Step}, (&monotone{threshold: th * mi}).run)
			if err != nil {
				t.Fatal(err)
			}
			par, err := MinMem(context.Background(), s, (&monotone{threshold: th * mi}).run)
			if err != nil {
				t.Fatal(err)
			}
			if par.MinOK != seq.MinOK || par.MaxKO != seq.MaxKO {
				t.Fatalf("N=%d, threshold %d MiB: %d/%d, sequential %d/%d", n, th, par.MinOK/mi, par.MaxKO/mi, seq.MinOK/mi, seq.MaxKO/mi)
			}
			if want := ceilLog(gaps, int64(n+1)); n > 1 && par.Rounds > want {
				t.Errorf("N=%d, threshold %d MiB: %d rounds, want at most %d", n, th, par.Rounds, want)
			}
		}
	}
	s.Parallel = 8
	if got := ceilLog(gaps, 9); got != 3 {
		t.Errorf("a 64Mi-1Gi grid at N=8: ⌈log_9 %d⌉ = %d, want 3", gaps, got)
	}
}

// Through a Session with Parallel 4, a minmem runs 4 trials at once, no
// more, stores every one, and finds the edge one at a time finds.
func TestMinMemParallelThroughASession(t *testing.T) {
	answers := map[int]int64{}
	for _, n := range []int{1, 4} {
		st := openStore(t)
		var fl inFlight
		f := &fake{}
		s := newSession(t, st, f, store.KindMinMem)
		s.Parallel = n
		s.Run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
			fl.enter()
			defer fl.leave()
			time.Sleep(30 * time.Millisecond) // long enough for the others to start
			return f.run(ctx, spec)
		}
		p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"}, Search: Search{Min: 64 * mi, Max: 1024 * mi, Step: 8 * mi}}
		res, err := p.Run(context.Background(), s)
		if err != nil || len(res) != 1 {
			t.Fatalf("parallel %d: %v", n, err)
		}
		o := res[0].Outcome
		answers[n] = o.MinOK
		if got := len(stored(t, st, s)); got != len(o.Trials) {
			t.Errorf("parallel %d: %d trials, %d stored", n, len(o.Trials), got)
		}
		if got := int(fl.peak.Load()); got != n {
			t.Errorf("parallel %d: %d trials ran at once", n, got)
		}
	}
	if answers[1] != 144*mi || answers[4] != answers[1] {
		t.Errorf("answers %v; want 144Mi at 1 and 4", answers)
	}
}
