package experiment

import (
	"context"
	"sync"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// With Search.Parallel = N trials side by side (Kubernetes pods, or a host
// with room for them), each round tries N limits spread over the bracket
// still open, cutting it into N+1 parts: a grid of G limits takes
// ⌈log_{N+1} G⌉ rounds instead of log2 G trials one after the other. Once
// the bracket is one step wide, the repeats at the boundary run as they do
// one at a time. Passing is monotone in the limit, so the answer on a
// noiseless app is the sequential one.

// nextRound is the limits of the next round: up to n of them when a
// bracket is open, else the one the sequential search takes next.
func (st *searchState) nextRound(n int) []int64 {
	if n > 1 {
		if ms := st.spread(n); len(ms) > 0 {
			return ms
		}
	}
	if mem, done := st.next(); !done {
		return []int64{mem}
	}
	return nil
}

// spread cuts the open bracket into n+1 parts on the grid: below it the
// highest KO (or one step under the lowest limit), above it the lowest OK
// (or one step over the highest).
func (st *searchState) spread(n int) []int64 {
	s := st.s
	lo, hi := max(s.gridLow(), st.floor), s.gridHigh()
	if lo > hi {
		return nil
	}
	ok, ko := st.boundary()
	below, above := lo-s.Step, hi+s.Step
	switch {
	case len(st.runs) == 0:
	case ok == 0:
		below = st.highest()
	case ko != 0 && ok-ko > s.Step:
		below, above = ko, ok
	case ko == 0 && ok > lo:
		above = ok
	default:
		return nil
	}
	gaps := (above - below) / s.Step
	k := min(int64(n), gaps-1)
	var out []int64
	for i := int64(1); i <= k; i++ {
		m := (below/s.Step + gaps*i/(k+1)) * s.Step
		if m > below && m < above && m >= lo && m <= hi && (len(out) == 0 || m != out[len(out)-1]) {
			out = append(out, m)
		}
	}
	return out
}

// round runs the limits side by side and records them in the order given,
// so the search's state is the same whatever order they end in.
func (st *searchState) round(ctx context.Context, fn TrialFunc, mems []int64, out *Outcome) error {
	if len(mems) == 1 {
		return st.try(ctx, fn, mems[0], out)
	}
	if st.s.OnRound != nil {
		st.s.OnRound(mems)
	}
	results := make([]*trial.Result, len(mems))
	errs := make([]error, len(mems))
	var wg sync.WaitGroup
	for i, m := range mems {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = fn(ctx, m)
		}()
	}
	wg.Wait()
	out.Rounds++
	for i, m := range mems {
		done := func(context.Context, int64) (*trial.Result, error) { return results[i], errs[i] }
		if err := st.try(ctx, done, m, out); err != nil {
			return err
		}
	}
	return nil
}
