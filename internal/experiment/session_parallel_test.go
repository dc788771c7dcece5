package experiment

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// inFlight counts trials running at once and keeps the highest count.
type inFlight struct {
	now, peak atomic.Int32
}

func (f *inFlight) enter() {
	n := f.now.Add(1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (f *inFlight) leave() { f.now.Add(-1) }

func sweepCells(s *Session) Sweep {
	rates, _ := ParseNumbers("rate", "100..600/100")
	return Sweep{Cells: Axes{CPUs: []float64{1}, Rates: rates, Memory: []int64{256 * mi}}.Cells(s.Base)}
}

// A sweep with Parallel 3 runs three cells at once, no more, and stores
// every cell; with Parallel 1 it runs one at a time.
func TestSweepRunsParallelCellsAtOnce(t *testing.T) {
	for _, n := range []int{1, 3} {
		st := openStore(t)
		var fl inFlight
		f := &fake{}
		s := newSession(t, st, f, store.KindSweep)
		s.Parallel = n
		s.Run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
			fl.enter()
			defer fl.leave()
			time.Sleep(60 * time.Millisecond) // long enough for the others to start
			return f.run(ctx, spec)
		}
		sw := sweepCells(s)
		cells, err := sw.Run(context.Background(), s)
		if err != nil || len(cells) != 6 || len(stored(t, st, s)) != 6 {
			t.Fatalf("parallel %d: %d cells, %d stored, %v", n, len(cells), len(stored(t, st, s)), err)
		}
		for i, c := range cells {
			if c.Cell != sw.Cells[i] || c.Result.Spec.Rate != sw.Cells[i].Rate {
				t.Errorf("parallel %d: cell %d is %v, want the cells' order", n, i, c.Cell)
			}
		}
		if got := int(fl.peak.Load()); got != n {
			t.Errorf("parallel %d: %d trials ran at once", n, got)
		}
		if ran, _ := s.Counts(); ran != 6 {
			t.Errorf("parallel %d: counted %d trials run", n, ran)
		}
	}
}

// A trial that fails stops the batch: no trial starts after it, the ones
// already running finish and are stored, and the error comes back.
func TestBatchStopsStartingAfterAnError(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	s := newSession(t, st, f, store.KindSweep)
	s.Parallel = 2
	boom := errors.New("the cluster refused the Job")
	var mu sync.Mutex
	var started []float64
	// The failing trial ends only once the second has started: without
	// this the error could stop the batch before the second worker
	// started (a race on a loaded machine, not the rule under test).
	second := make(chan struct{})
	var once sync.Once
	s.Run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		mu.Lock()
		started = append(started, spec.Rate)
		mu.Unlock()
		if spec.Rate == 100 {
			select {
			case <-second:
			case <-time.After(10 * time.Second):
				t.Error("the second trial never started beside the first")
			}
			return nil, boom
		}
		once.Do(func() { close(second) })
		time.Sleep(100 * time.Millisecond)
		return f.run(ctx, spec)
	}
	cells, err := sweepCells(s).Run(context.Background(), s)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if len(started) != 2 || len(cells) != 1 || len(stored(t, st, s)) != 1 {
		t.Errorf("started %v, %d cells, %d stored: want the two first, the one that ended stored", started, len(cells), len(stored(t, st, s)))
	}
}
