package experiment

import (
	"context"
	"errors"
	"sync"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// Planned is one trial a strategy knows before any of them runs (a sweep's
// cell), named by what for progress.
type Planned struct {
	Spec trial.Spec
	What string
}

// BatchOutcome is a Planned trial's Session.Trial answer; all zero for a trial
// that never started because an earlier one stopped the experiment.
type BatchOutcome struct {
	Result *trial.Result
	Reused bool
	Err    error
}

// Batch runs independent trials through Trial, Parallel at a time (1 or
// less: one after the other, as always), and returns their outcomes in
// the order given. Each trial is still stored the moment it ends, before
// it counts. The first error other than a refused limit stops the batch:
// no further trial starts, those running finish (and are stored), and
// the others stay zero. Which trials a strategy may batch is its own
// call: sweep and compare batch every cell; minmem's bisection and tune's
// rounds depend on each answer and stay sequential.
func (s *Session) Batch(ctx context.Context, trials []Planned) []BatchOutcome {
	out := make([]BatchOutcome, len(trials))
	n := max(s.Parallel, 1)
	whats := make([]string, len(trials))
	for i, p := range trials {
		whats[i] = p.What
	}
	s.Round(whats)
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	stopped := false
	for i, p := range trials {
		sem <- struct{}{}
		mu.Lock()
		stop := stopped
		mu.Unlock()
		if stop {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			r, reused, err := s.Trial(ctx, p.Spec, p.What)
			out[i] = BatchOutcome{Result: r, Reused: reused, Err: err}
			var ref *RefusedLimit
			if err != nil && !errors.As(err, &ref) {
				mu.Lock()
				stopped = true
				mu.Unlock()
			}
		}()
		if n == 1 {
			wg.Wait() // one at a time: the next starts after this one's outcome
		}
	}
	wg.Wait()
	return out
}
