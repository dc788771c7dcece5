package tune

import (
	"slices"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// A candidate's edge is the smallest grid limit at which it holds the SLO.
// Passing is monotone in the limit, so the edge lies in a bracket: above
// the highest limit it failed at (ko, a trial's KO: hard), at or below the
// lowest limit it passed at (MinOKBytes). Below the floor the planner
// predicts (FloorBytes) nothing has failed yet: soft is the bound that
// prediction gives, one step under the floor, and it is only a prediction
// (the planner's margins on top of what the profile measured). When the
// bracket closes on soft, the candidate is tried below it, planned as exec
// plans a limit under the plan's floor (Point.Fit), before it counts as
// converged; a pass there lowers soft by a gallop (1, 2, 4... steps), a
// KO makes it hard.

// low is the lowest grid limit tune tries.
func (s *searcher) low() int64 { return s.gridUp(s.cfg.Min) }

// lower is the bracket's lower bound: the limit known or predicted to fail.
func (c *cand) lower() int64 { return max(c.ko, c.soft) }

// converged says whether the candidate's edge is known to the grid step:
// its lowest pass is one step above a KO, or at the lowest limit tried.
func (s *searcher) converged(c *cand) bool {
	return c.MinOKBytes > 0 && (c.MinOKBytes-c.ko <= s.cfg.Step || c.MinOKBytes <= s.low())
}

// next is up to n limits to try c at next, side by side; none once its
// edge is known.
//   - First its start: where the launcher's heap holds the measured live
//     set, else its floor.
//   - While it has only failed, a gallop up: 1, 2, 4... steps above its
//     highest KO.
//   - With a pass above the bound, the bracket cut into n+1 parts.
//   - At the soft bound, the limits below it: 1, 2, 4... steps down.
func (s *searcher) next(c *cand, n int) []int64 {
	step, lo := s.cfg.Step, c.lower()
	var out []int64
	add := func(m int64) {
		m = min(m, s.top)
		if m >= s.low() && m > c.ko && !slices.Contains(out, m) && (c.MinOKBytes == 0 || m < c.MinOKBytes) {
			out = append(out, m)
		}
	}
	switch {
	case s.converged(c) || c.ko >= s.top:
	case c.MinOKBytes == 0 && c.misses == 0 && c.start > lo+step && n == 1:
		out = []int64{min(c.start, s.top)}
	case c.MinOKBytes == 0 && c.misses == 0 && n > 1:
		// Side by side, the first round is the prediction (the start, or
		// a step above the bound) and the limits either side of it: below
		// it a step at a time, above it a gallop of 1, 2, 4... steps, so
		// that a prediction too low still brackets the edge in this round
		// (filecache at 8, planned from 72Mi with its edge at 112Mi: the
		// eight limits 40Mi to 96Mi all failed, and the gallop and the
		// split that followed took two more rounds of eight).
		f := max(min(c.start, s.top), lo+step)
		add(f)
		for i := int64(1); len(out) < n && i < 64; i++ {
			add(f + step<<(i-1))
			if len(out) < n {
				add(f - i*step)
			}
		}
		slices.Sort(out)
	case c.MinOKBytes == 0 && n == 1:
		add(lo + step<<(max(c.misses, 1)-1))
	case c.MinOKBytes == 0:
		// Side by side, a round's gallop starts again at a step above the
		// highest KO: misses counts trials, and a round of eight that all
		// failed would send the next one 2^7 steps up.
		for i := 0; len(out) < n && i < 24; i++ {
			add(lo + step<<i)
		}
	case c.MinOKBytes-lo > step:
		out = s.split(lo, c.MinOKBytes, n)
	default: // the bracket closed on the soft bound: below it
		for i := 0; len(out) < n && i < 20; i++ {
			add(c.MinOKBytes - step<<i)
		}
	}
	return out
}

// split cuts the open bracket (lo, hi) into up to n+1 parts on the grid:
// n at once take G steps in ⌈log_{n+1} G⌉ rounds, one at a time the
// bisection.
func (s *searcher) split(lo, hi int64, n int) []int64 {
	step := s.cfg.Step
	gaps := (hi - lo) / step // grid limits strictly inside: gaps-1
	n = int(min(int64(n), gaps-1))
	var out []int64
	for i := 1; i <= n; i++ {
		m := lo/step + (gaps*int64(i))/int64(n+1)
		if v := m * step; v > lo && v < hi && (len(out) == 0 || v != out[len(out)-1]) {
			out = append(out, v)
		}
	}
	return out
}

// record files a search trial's outcome at mem into c's bracket. An OK
// below a KO it saw (noise at the edge) does not move the bracket: the
// answer is never a limit below a KO of the same candidate (choose).
func (s *searcher) record(c *cand, mem int64, o Outcome, idx int) {
	c.Trials++
	if o.Verdict == trial.OK {
		c.oks = append(c.oks, idx)
		if mem > c.ko && (c.MinOKBytes == 0 || mem < c.MinOKBytes) {
			c.MinOKBytes = mem
			if mem <= c.soft {
				// A pass under the predicted floor: the prediction was too
				// careful, and the next bound down is a gallop away.
				c.downs++
				c.soft = max(mem-s.cfg.Step<<c.downs, s.low()-s.cfg.Step)
			}
		}
		return
	}
	c.MaxKOBytes = max(c.MaxKOBytes, mem)
	if mem > c.ko {
		c.ko = mem
	}
	if c.MinOKBytes > 0 && c.MinOKBytes <= c.ko {
		c.MinOKBytes = s.lowestOKAbove(c, c.ko)
	}
	if c.MinOKBytes == 0 {
		c.misses++
	}
}

// lowestOKAbove is c's lowest OK search limit above ko, or 0.
func (s *searcher) lowestOKAbove(c *cand, ko int64) int64 {
	var m int64
	for _, i := range c.oks {
		if v := s.res.Trials[i].Point.MemoryBytes; v > ko && (m == 0 || v < m) {
			m = v
		}
	}
	return m
}
