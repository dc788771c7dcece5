// Package experiment runs the sizing experiments built from trials: the
// smallest memory limit that passes (minmem), a matrix of cells (sweep) and
// option sets side by side (compare), and turns their results into a
// recommendation.
package experiment

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TrialFunc runs one trial at a memory limit. Everything else about the
// trial (CPUs, options, load) is fixed by the caller's closure, so the search
// can be exercised on simulated functions.
type TrialFunc func(ctx context.Context, memoryBytes int64) (*trial.Result, error)

// Search bounds the memory search. Limits are tried only on the grid
// (multiples of Step) between Min and Max.
type Search struct {
	Min, Max, Step int64
	// Repeats is how many extra times the boundary limits (lowest OK,
	// highest KO) are run before the answer is accepted.
	Repeats int
	// MaxTrials stops a search that noise keeps from settling; 0 = no cap
	// beyond the grid itself.
	MaxTrials int
}

// DefaultSearch is the range and precision `jvmfit minmem` uses unless told.
var DefaultSearch = Search{Min: 64 * size.MiB, Max: 1 * size.GiB, Step: 8 * size.MiB, Repeats: 1}

// Probe is one trial the search ran.
type Probe struct {
	MemoryBytes int64
	Verdict     string // trial.OK or trial.KO
	Result      *trial.Result
}

// Outcome is what the search found. MinOK is 0 when no limit in the range
// passed; MaxKO is 0 when none failed.
type Outcome struct {
	MinOK     int64
	MaxKO     int64
	Precision int64 // MinOK-MaxKO: the true boundary lies in (MaxKO, MinOK]; 0 when unbracketed
	Flaky     bool  // some limit gave both verdicts
	NoiseBand int64 // from the lowest limit that ever passed to one step above the highest that ever failed; 0 when monotone
	Trials    []Probe
	Note      string // plain words when the answer is not a bracketed boundary
}

// Validate checks the range before any trial runs.
func (s Search) Validate() error {
	switch {
	case s.Step <= 0:
		return fmt.Errorf("--step must be positive (e.g. 8Mi)")
	case s.Min <= 0:
		return fmt.Errorf("--min must be positive (e.g. 64Mi)")
	case s.Max < s.Min:
		return fmt.Errorf("--max %s is below --min %s", size.Format(s.Max), size.Format(s.Min))
	case s.Repeats < 0:
		return fmt.Errorf("--repeats cannot be negative")
	case s.gridHigh() < s.gridLow():
		return fmt.Errorf("no multiple of --step %s lies between --min %s and --max %s", size.Format(s.Step), size.Format(s.Min), size.Format(s.Max))
	}
	return nil
}

func (s Search) gridLow() int64  { return (s.Min + s.Step - 1) / s.Step * s.Step }
func (s Search) gridHigh() int64 { return s.Max / s.Step * s.Step }

// MinMem searches for the smallest limit at which fn passes: doubling from
// Min until a trial passes, then bisecting on the grid, then running the
// boundary limits again. A limit's verdict is the majority of its runs; a
// tie at the highest KO is broken by one more run (a tie anywhere else
// counts as KO, so one failure in two runs is enough to distrust a limit). Because noise makes verdicts non-monotone, the answer is the lowest
// OK limit with no KO limit above it, never a lucky OK below a failure.
// On error (including ctx cancellation) the trials so far are returned.
func MinMem(ctx context.Context, s Search, fn TrialFunc) (*Outcome, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	st := &searchState{runs: map[int64][]string{}}
	out := &Outcome{}
	run := func(mem int64) error {
		if s.MaxTrials > 0 && len(out.Trials) >= s.MaxTrials {
			return errTrialCap
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := fn(ctx, mem)
		if err != nil {
			return err
		}
		if r == nil {
			return fmt.Errorf("trial at %s returned no result", size.Format(mem))
		}
		v := trial.KO
		if r.Verdict == trial.OK {
			v = trial.OK
		}
		st.runs[mem] = append(st.runs[mem], v)
		out.Trials = append(out.Trials, Probe{MemoryBytes: mem, Verdict: v, Result: r})
		return nil
	}
	lo, hi := s.gridLow(), s.gridHigh()
	need := 1 + s.Repeats
	var err error
	for err == nil {
		ok, ko := st.boundary()
		switch {
		case len(st.runs) == 0:
			err = run(lo)
		case ok == 0 && st.highest() < hi:
			err = run(snapUp(2*st.highest(), s.Step, hi))
		case ok == 0:
			// Everything up to Max failed; confirm Max before saying so.
			if len(st.runs[hi]) < need {
				err = run(hi)
				continue
			}
			out.finish(st, s)
			return out, nil
		case ko != 0 && ok-ko > s.Step:
			err = run(snapUp(ko+(ok-ko)/2, s.Step, hi))
		case len(st.runs[ok]) < need:
			err = run(ok)
		case ko != 0 && len(st.runs[ko]) < need:
			err = run(ko)
		case ko != 0 && tied(st.runs[ko]):
			// One pass and one failure at the highest KO is noise, not a
			// verdict: one more run decides. If it passes, the boundary
			// moves down and the bisection goes on below it, instead of
			// a latency spike pinning the answer high.
			err = run(ko)
		default:
			out.finish(st, s)
			return out, nil
		}
	}
	out.finish(st, s)
	if errors.Is(err, errTrialCap) {
		out.Note = fmt.Sprintf("stopped after --max-trials %d; the boundary is not confirmed", s.MaxTrials)
		return out, nil
	}
	return out, err
}

var errTrialCap = errors.New("trial cap reached")

func tied(vs []string) bool {
	ok := 0
	for _, v := range vs {
		if v == trial.OK {
			ok++
		}
	}
	return 2*ok == len(vs)
}

type searchState struct {
	runs map[int64][]string // limit -> verdicts, in run order
}

// boundary applies the rule the report also reads its tables with.
func (st *searchState) boundary() (ok, ko int64) { return judge.Boundary(st.runs) }

func (st *searchState) highest() int64 {
	m := st.sorted()
	return m[len(m)-1]
}

func (st *searchState) sorted() []int64 {
	m := make([]int64, 0, len(st.runs))
	for k := range st.runs {
		m = append(m, k)
	}
	sort.Slice(m, func(i, j int) bool { return m[i] < m[j] })
	return m
}

func (o *Outcome) finish(st *searchState, s Search) {
	if len(st.runs) == 0 {
		return
	}
	o.MinOK, o.MaxKO = st.boundary()
	var lowestOK, highestKO int64
	for mem, vs := range st.runs {
		for _, v := range vs {
			if v != vs[0] {
				o.Flaky = true
			}
			if v == trial.OK && (lowestOK == 0 || mem < lowestOK) {
				lowestOK = mem
			}
			if v == trial.KO && mem > highestKO {
				highestKO = mem
			}
		}
	}
	// A limit that both passed and failed counts as a band one step wide.
	if lowestOK > 0 && highestKO >= lowestOK {
		o.NoiseBand = highestKO - lowestOK + s.Step
	}
	switch {
	case o.MinOK == 0:
		o.Note = fmt.Sprintf("no limit up to --max %s passed; raise --max or check the KO reasons", size.Format(s.Max))
	case o.MaxKO == 0:
		o.Note = fmt.Sprintf("the lowest limit tried (%s) passed; lower --min to search further", size.Format(o.MinOK))
	default:
		o.Precision = o.MinOK - o.MaxKO
	}
}

// snapUp rounds v up to the grid, capped at hi.
func snapUp(v, step, hi int64) int64 {
	v = (v + step - 1) / step * step
	if v > hi {
		return hi
	}
	return v
}
