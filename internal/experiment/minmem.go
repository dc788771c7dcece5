// Package experiment runs the sizing experiments built from trials: the
// smallest memory limit that passes (minmem, proven by a soak), a matrix of
// cells (sweep) and option sets side by side (compare), and turns their
// results into a recommendation. A Session owns an experiment's life and is
// the only way a strategy runs a trial; a new experiment is one file of
// strategy that asks a Session for trials.
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
	// Parallel is how many limits a round tries side by side
	// (minmem_parallel.go); 0 or 1: one at a time.
	Parallel int
	// OnRound, when set, hears the limits of each round side by side
	// before it starts (the Session's progress).
	OnRound func(mems []int64) `json:"-"`
}

// DefaultSearch is the range and precision `jvmfit minmem` uses unless told.
var DefaultSearch = Search{Min: 64 * size.MiB, Max: 1 * size.GiB, Step: 8 * size.MiB, Repeats: 1}

// Probe is one trial the search ran.
type Probe struct {
	MemoryBytes int64
	Verdict     trial.Verdict // trial.OK or trial.KO
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
	// Floor is the smallest limit on the grid the launcher's planner
	// accepts for the mode, when it refused a lower one (0 = it refused
	// none): the limits below it were never trials.
	Floor int64
	Note  string // plain words when the answer is not a bracketed boundary
	// Rounds is how many rounds of trials the search ran: with Parallel
	// above 1, trials of one round ran side by side.
	Rounds int
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
// boundary limits again. A limit's verdict is the majority of its runs
// (judge.Passes); a tie at the highest KO is broken by one more run (a tie
// anywhere else counts as KO, so one failure in two runs is enough to
// distrust a limit). Because noise makes verdicts non-monotone, the answer
// is the lowest OK limit with no KO limit above it, never a lucky OK below
// a failure. A limit the planner refuses (fn returns a *RefusedLimit) is no
// trial: the search moves up to the planner's floor on the grid and never
// asks for a limit below it again. On error (including ctx cancellation)
// the trials so far are returned.
func MinMem(ctx context.Context, s Search, fn TrialFunc) (*Outcome, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	st := &searchState{s: s, runs: map[int64][]bool{}}
	out := &Outcome{}
	var err error
	for err == nil {
		mems := st.nextRound(s.Parallel)
		if len(mems) == 0 {
			break
		}
		if len(mems) == 1 {
			out.Rounds++
		}
		err = st.round(ctx, fn, mems, out)
	}
	out.finish(st)
	if errors.Is(err, errTrialCap) {
		out.Note = fmt.Sprintf("stopped after --max-trials %d; the boundary is not confirmed", s.MaxTrials)
		return out, nil
	}
	return out, err
}

var errTrialCap = errors.New("trial cap reached")

// next is the limit to try next, or done.
func (st *searchState) next() (mem int64, done bool) {
	s := st.s
	lo, hi := max(s.gridLow(), st.floor), s.gridHigh()
	if lo > hi {
		return 0, true // the planner refuses every limit in the range
	}
	need := 1 + s.Repeats
	ok, ko := st.boundary()
	// Below the lowest accepted limit every limit is refused: the grid
	// step under it is a KO that needs no trial and no repeat.
	accepted := st.floor
	if len(st.runs[st.exact]) > 0 {
		accepted = st.exact
	}
	koRefused := st.floor > 0 && ko < accepted
	if koRefused {
		ko = accepted - s.Step
	}
	switch {
	case len(st.runs) == 0:
		return lo, false
	case ok == 0 && st.highest() < hi:
		return snapUp(2*st.highest(), s.Step, hi), false
	case ok == 0:
		// Everything up to Max failed; confirm Max before saying so.
		return hi, len(st.runs[hi]) >= need
	case ko != 0 && ok-ko > s.Step:
		return snapUp(ko+(ok-ko)/2, s.Step, hi), false
	case len(st.runs[ok]) < need:
		return ok, false
	case koRefused && ok == st.floor && st.exact > 0 && st.exact < st.floor && !st.exactTried:
		// The app passed at the floor on the grid, and the planner accepts
		// a little less, off the grid: one trial there says whether the
		// edge is the app's (a KO, the highest KO a real trial) or the
		// planner's (an OK at the smallest limit it accepts).
		st.exactTried = true
		return st.exact, false
	case koRefused:
		return 0, true
	case ko != 0 && (len(st.runs[ko]) < need || tied(st.runs[ko])):
		// One pass and one failure at the highest KO is noise, not a
		// verdict: one more run decides. If it passes, the boundary moves
		// down and the bisection goes on below it, instead of a latency
		// spike pinning the answer high.
		return ko, false
	}
	return 0, true
}

// try runs one limit and records its verdict, or the planner's refusal.
func (st *searchState) try(ctx context.Context, fn TrialFunc, mem int64, out *Outcome) error {
	if st.s.MaxTrials > 0 && len(out.Trials) >= st.s.MaxTrials {
		return errTrialCap
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r, err := fn(ctx, mem)
	var ref *RefusedLimit
	if errors.As(err, &ref) {
		return st.refuse(mem, ref)
	}
	if err != nil {
		return err
	}
	if r == nil {
		return fmt.Errorf("trial at %s returned no result", size.Format(mem))
	}
	passed := r.Verdict == trial.OK
	st.runs[mem] = append(st.runs[mem], passed)
	v := trial.KO
	if passed {
		v = trial.OK
	}
	out.Trials = append(out.Trials, Probe{MemoryBytes: mem, Verdict: v, Result: r})
	return nil
}

// refuse raises the floor to the smallest grid limit the planner accepts.
func (st *searchState) refuse(mem int64, ref *RefusedLimit) error {
	f := ref.Floor(st.s.Step)
	if f == 0 {
		return ref // no limit would do: the user's to fix
	}
	if len(st.runs) > 0 && st.sorted()[0] < f {
		// A floor above a limit it planned: the search cannot read this
		// refusal as the edge, so it stops and says so.
		return fmt.Errorf("%w; yet it planned %s, a lower limit, so its floor cannot bound the search", ref, size.Format(st.sorted()[0]))
	}
	if f > st.floor {
		st.floor, st.refusal = f, ref
		st.exact = (ref.Planner.MinBytes + size.MiB - 1) / size.MiB * size.MiB
	}
	return nil
}

func tied(runs []bool) bool {
	ok := 0
	for _, passed := range runs {
		if passed {
			ok++
		}
	}
	return 2*ok == len(runs)
}

type searchState struct {
	s       Search
	runs    map[int64][]bool // limit -> passed or not, in run order
	floor   int64            // the planner's floor on the grid; 0 = none met
	refusal *RefusedLimit    // the refusal that set it
	// exact is the planner's own smallest accepted limit, in whole MiB,
	// below the floor when it is off the grid; exactTried says the search
	// has asked for it (once: a refusal there must not loop).
	exact      int64
	exactTried bool
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

func (o *Outcome) finish(st *searchState) {
	s := st.s
	o.Floor = st.floor
	o.MinOK, o.MaxKO = st.boundary()
	o.noise(st)
	switch {
	case st.floor > s.gridHigh():
		o.Note = fmt.Sprintf("the planner refuses every limit up to --max %s (%v); raise --max", size.Format(s.Max), st.refusal)
	case o.MinOK == 0 && len(st.runs) > 0:
		o.Note = fmt.Sprintf("no limit up to --max %s passed; raise --max or check the KO reasons", size.Format(s.Max))
	case o.MinOK == 0:
	case st.floor > 0 && o.MinOK == st.exact && st.exact < st.floor:
		o.Precision = s.Step
		o.Note = fmt.Sprintf("the boundary is the planner's floor, not the app's: %v. The app passed at %s, the smallest limit it accepts",
			st.refusal, size.Format(st.exact))
	case st.floor > 0 && o.MinOK == st.floor && o.MaxKO == 0:
		o.Precision = s.Step
		o.Note = fmt.Sprintf("the boundary is the planner's floor, not the app's: %v. %s is the smallest limit on the --step grid it accepts; the app passed there and was not tried below",
			st.refusal, size.Format(st.floor))
	case o.MaxKO == 0:
		o.Note = fmt.Sprintf("the lowest limit tried (%s) passed; lower --min to search further", size.Format(o.MinOK))
	default:
		o.Precision = o.MinOK - o.MaxKO
	}
}

// noise marks a search whose verdicts disagreed and measures the band.
func (o *Outcome) noise(st *searchState) {
	var lowestOK, highestKO int64
	for mem, vs := range st.runs {
		for _, v := range vs {
			if v != vs[0] {
				o.Flaky = true
			}
			if v && (lowestOK == 0 || mem < lowestOK) {
				lowestOK = mem
			}
			if !v && mem > highestKO {
				highestKO = mem
			}
		}
	}
	// A limit that both passed and failed counts as a band one step wide.
	if lowestOK > 0 && highestKO >= lowestOK {
		o.NoiseBand = highestKO - lowestOK + st.s.Step
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
