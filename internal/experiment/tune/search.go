package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// cand is a candidate during the search.
type cand struct {
	*CandidateResult
	ko int64 // highest limit known to fail: a KO, or one step below the floor
	// start is the first trial's limit: the lowest at which the launcher's
	// heap holds the whole measured live set (0: the floor).
	start int64
	// soft is the bound the planner's floor predicts: one step under it,
	// lowered as trials below it pass (edge.go).
	soft    int64
	misses  int // KOs so far while none passed: how far the next gallop up jumps
	downs   int // passes under the predicted floor: how far the next gallop down jumps
	trained bool
	oks     []int // indexes of its OK search trials in the result
	// prof is the profile measured under the candidate's own options (its
	// first OK trial), nil until then: the launcher plans its later
	// trials, its floor and its soak with it.
	prof *plan.Profile
}

// searcher is one run of Tune.
type searcher struct {
	cfg    Config
	w      Weights
	trials Trials
	res    *Result
	ref    Outcome // the profile trial: the zero of every cost
	top    int64   // the highest limit on the grid
	cands  []*cand
	// firstEdge is the first incumbent's limit (the launcher's edge, as a
	// rule): throughput tries its challengers there (edgefirst.go).
	firstEdge int64
	// order and tried are the search's line of candidates (edgefirst.go):
	// the free slots of a round side by side are filled from it (spare.go).
	order []*cand
	tried map[*cand]bool
}

// Tune measures a profile, generates candidates, bisects the limit of the
// most promising ones and soaks the chosen point, within cfg.Budget trials
// in all. docs/tune.md explains the search. On error (a cancelled ctx
// among them) the result so far is returned with the error.
func Run(ctx context.Context, cfg Config, trials Trials) (*Result, error) {
	if cfg.Planner == nil && cfg.JDK <= 0 {
		return nil, errors.New("tune: the JDK's feature version is needed to plan: inspect the java first")
	}
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w, _ := weightsOf(cfg.Goal)
	goal, _ := plan.ParseGoal(cfg.Goal)
	s := &searcher{cfg: cfg, w: w, trials: trials, top: cfg.Generous / cfg.Step * cfg.Step,
		res: &Result{Goal: goal, CPUs: cfg.CPUs, Budget: cfg.Budget, Chosen: -1, Verdict: None}}
	err := s.profile(ctx)
	if err == nil && s.res.Profile != nil {
		if err = s.candidates(); err == nil {
			s.res.Cost = s.estimateCost()
			s.scaleBudget()
			s.note("%s", s.res.Cost.say(s.cfg.Budget))
			err = s.search(ctx)
		}
	}
	s.collect()
	if err == nil {
		err = s.hold(ctx)
	}
	if err == nil {
		err = s.soak(ctx)
	}
	s.answer()
	if err == nil {
		err = s.rerun(ctx)
	}
	return s.res, err
}

// run asks for one trial and records it; every call counts in the budget.
func (s *searcher) run(ctx context.Context, p Point) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	var o Outcome
	var err error
	if p.Purpose == PurposeSoak {
		o, err = s.trials.Soak(ctx, p)
	} else {
		o, err = s.trials.Run(ctx, p)
	}
	if err != nil {
		return o, fmt.Errorf("tune: %s: %w", p, err)
	}
	if o.Verdict != trial.OK {
		o.Verdict = trial.KO
	}
	s.res.Trials = append(s.res.Trials, Trial{Point: p, Outcome: o})
	return o, nil
}

// proofTrials is what the search keeps for the proof: the chosen edge held
// as long as the soak (hold.go), the soak, and one soak a grid step up.
// The third is there because a held edge can still fail its soak (the
// soak runs through jvmfit exec with the candidate's own profile, a plan
// the search trials did not get): without it, the budget was spent and
// the answer was one step up, "not proven", at a limit no long trial had
// passed.
const proofTrials = 3

// room says whether n more trials fit, keeping proofTrials for the proof.
func (s *searcher) room(n int) bool {
	reserve := 0
	if s.cfg.Soak > 0 {
		reserve = proofTrials
	}
	return s.res.Used()+n+reserve <= s.cfg.Budget
}

func (s *searcher) profile(ctx context.Context) error {
	if s.cfg.Profile != nil {
		// Costs are log ratios to the reference, so a zero reference only
		// shifts every cost by the same amount: the choice is unchanged.
		s.res.Profile = s.cfg.Profile
		s.note("the profile was given (--profile): no profile trial ran")
		return nil
	}
	pp := Point{Purpose: PurposeProfile, MemoryBytes: s.cfg.Generous, CPUs: s.cfg.CPUs}
	o, err := s.run(ctx, pp)
	if err != nil {
		return err
	}
	// At a generous limit with the JDK's defaults, a missed SLO is most
	// likely the machine (a p99 of 626 ms once, on catalog, where the same
	// trial passed on the next run), and without a profile the whole tune
	// answers none: one rerun, if the budget has room for it.
	if o.Verdict != trial.OK && o.Kind == trial.KindSLO && s.room(2) {
		s.note("the profile trial missed the SLO at %s (p99 %s); ran it once more", size.Format(s.cfg.Generous), o.P99.Round(time.Millisecond))
		pp.Repeat = 1
		if o, err = s.run(ctx, pp); err != nil {
			return err
		}
	}
	if o.Verdict != trial.OK {
		s.note("the profile trial failed at %s with the JDK's defaults (%s): tune needs a limit where the app holds; fix the app or raise the generous limit", size.Format(s.cfg.Generous), o.Kind)
		return nil
	}
	s.ref, s.res.Profile = o, o.Profile
	for _, n := range o.Notes {
		s.note("profile: %s", n)
	}
	if s.res.Profile == nil {
		s.res.Profile = &plan.Profile{}
		s.note("the profile trial measured no profile; candidates leave every region to the planner")
	}
	return nil
}

func (s *searcher) note(format string, a ...any) {
	s.res.Notes = append(s.res.Notes, fmt.Sprintf(format, a...))
}

// candidates generates the candidates and finds each one's floor: the
// lowest grid limit the planner accepts its options at. Below it a trial
// would be refused, so it costs nothing to know it fails there.
func (s *searcher) candidates() error {
	cs, err := Candidates(s.cfg.Goal, s.cfg.CPUs, s.cfg.JDK, s.res.Profile, s.cfg.ArchiveDir)
	if err != nil {
		return err
	}
	cs = s.pools(cs)
	low := s.gridUp(s.cfg.Min)
	for _, c := range cs {
		tc := &cand{CandidateResult: &CandidateResult{Candidate: c, FloorBytes: low}}
		f, err := s.floorOf(s.untrained(tc, low))
		switch {
		case err != nil:
			tc.Dropped = "the launcher cannot plan its options: " + err.Error()
		case f > 0:
			tc.FloorBytes = f
		}
		if tc.Dropped == "" && tc.FloorBytes > s.top {
			tc.Dropped = fmt.Sprintf("the launcher accepts its options only from %s, above the generous limit", size.Format(tc.FloorBytes))
		}
		tc.ko, tc.soft = low-s.cfg.Step, tc.FloorBytes-s.cfg.Step
		if tc.Dropped == "" {
			tc.start = s.startOf(s.untrained(tc, low))
		}
		s.cands = append(s.cands, tc)
	}
	return nil
}

func (s *searcher) point(c *cand, purpose string, mem int64) Point {
	p := Point{Purpose: purpose, MemoryBytes: mem, CPUs: s.cfg.CPUs, Candidate: c.Name,
		Options: c.Options, Profile: s.res.Profile}
	if c.prof != nil {
		p.Profile = c.prof
	}
	if c.NoProfile {
		p.Profile = nil // what minmem --jvm jvmfit:GOAL runs
	}
	p.Measure = purpose == PurposeSearch && c.prof == nil && s.cfg.Remeasure && !c.NoProfile
	p.Fit = c.Launcher || purpose == PurposeSearch && mem < c.FloorBytes
	return p
}

// untrained is c's search point at mem as the planner sees it before c's
// training has run in this search: without the archive its options read.
// In a fresh tune the file is not there yet (the launcher counts a mapped
// archive only when the file exists); a resumed tune finds the one its
// earlier training wrote, and planned with it the floor and the start
// differed, so the resume asked for points the fresh run never did
// (catalog: two serial-c1-appcds trials).
func (s *searcher) untrained(c *cand, mem int64) Point {
	p := s.point(c, PurposeSearch, mem)
	if c.Training != nil && !c.trained {
		p.Options = withoutArchive(p.Options)
	}
	return p
}

// withoutArchive drops the options that map a CDS archive or AOT cache.
func withoutArchive(opts []string) []string {
	var out []string
	for _, o := range opts {
		if !strings.HasPrefix(o, "-XX:SharedArchiveFile=") && !strings.HasPrefix(o, "-XX:AOTCache=") {
			out = append(out, o)
		}
	}
	return out
}

// floorOf is the lowest grid limit the launcher accepts the point's
// options at with its profile, 0 if it names none, or an error when it
// cannot plan them at all.
func (s *searcher) floorOf(p Point) (int64, error) {
	p.MemoryBytes, p.Fit = s.gridUp(s.cfg.Min), false
	_, err := s.cfg.Planner(p)
	var ref *plan.RefusedError
	switch {
	case errors.As(err, &ref) && ref.MinBytes > 0:
		return s.gridUp(ref.MinBytes), nil
	case err != nil:
		return 0, err
	}
	return p.MemoryBytes, nil
}

// startOf is the lowest grid limit at which the launcher gives the heap
// the whole measured live set, 0 if it names none. The launcher accepts
// heaps down to plan.LiveFloorShare of the live set (so that where an app
// fails is a trial, not a refusal), but the sample apps needed 1.07-1.18
// of it under load (docs/launcher.md): a first trial at the floor fails,
// measures no profile and costs a gallop step. Starting here, a pass lets
// the bisection go down to the floor, and a KO gallops up as before.
func (s *searcher) startOf(p Point) int64 {
	if p.Profile == nil || p.Profile.LiveHeapBytes <= 0 {
		return 0
	}
	q := *p.Profile
	q.LiveHeapBytes = int64(math.Ceil(float64(q.LiveHeapBytes) / plan.LiveFloorShare))
	p.Profile = &q
	f, err := s.floorOf(p)
	if err != nil {
		return 0
	}
	return f
}

// adopt makes the profile measured by c's first OK trial (at mem) its own
// and lowers its floor to what the launcher accepts with it: the first
// floor came from a profile measured under the JDK's defaults (C2's
// arenas, a larger metaspace and code cache), the new one from the
// candidate's options themselves, so the search can bisect below the
// first floor. A profile the launcher would not plan the passing limit
// with is not adopted.
func (s *searcher) adopt(c *cand, prof *plan.Profile, mem int64) {
	saved := c.prof
	c.prof = prof
	p := s.point(c, PurposeSearch, mem)
	if _, err := s.cfg.Planner(p); err != nil {
		c.prof = saved
		s.note("%s: the profile measured at %s is not used: the launcher would not plan that limit with it (%v)", c.Name, size.Format(mem), err)
		return
	}
	// The KOs it keeps are its trials' that still hold with this profile:
	// the launcher's refusals were of plans made with the other profile
	// (an archive candidate's first plan counts its archive on top of the
	// metaspace the archive takes over), and refusals cost no trial to
	// find again.
	f, err := s.floorOf(p)
	if err != nil || f == 0 {
		f = c.FloorBytes
	}
	c.FloorBytes = min(c.FloorBytes, f)
	c.ko = max(s.carriedKO(c), s.low()-s.cfg.Step)
	c.soft = min(c.soft, c.FloorBytes-s.cfg.Step)
	if c.MinOKBytes > 0 && c.MinOKBytes <= c.ko {
		c.MinOKBytes = s.lowestOKAbove(c, c.ko)
	}
}

// carriedKO is the highest KO of c that still holds with its own profile:
// one where the launcher now plans no larger a heap than the trial ran
// with. With the first profile the launcher gave a heap-less candidate
// only what the defaults' non-heap left (filecache at 120Mi: 18 MiB, p99
// 284 ms); with the candidate's own, the same limit gives the heap what
// that non-heap did not need, so that KO says nothing about it.
func (s *searcher) carriedKO(c *cand) int64 {
	var ko int64
	for _, t := range s.res.Trials {
		p := t.Point
		if p.Purpose != PurposeSearch || p.Candidate != c.Name || t.Outcome.Verdict == trial.OK || p.MemoryBytes <= ko {
			continue
		}
		before, err1 := s.cfg.Planner(p)
		p.Profile = c.prof
		now, err2 := s.cfg.Planner(p)
		if err1 != nil || err2 != nil || now.HeapBytes() <= before.HeapBytes() {
			ko = p.MemoryBytes
		}
	}
	return ko
}

func (s *searcher) gridUp(v int64) int64 { return (v + s.cfg.Step - 1) / s.cfg.Step * s.cfg.Step }

// cost prices a search trial for the goal; lower is better.
func (s *searcher) cost(t Trial) float64 {
	return cost(s.w, s.ref, t.Outcome, t.Point.MemoryBytes, s.cfg.Generous)
}

// collect fills each candidate's summary and the front.
func (s *searcher) collect() {
	s.res.Candidates = nil
	for _, c := range s.cands {
		c.Converged = s.converged(c)
		s.res.Candidates = append(s.res.Candidates, *c.CandidateResult)
	}
	s.res.front()
	s.res.Chosen = s.choose()
}

// bestOK is the index of a candidate's cheapest OK trial, or -1.
func (s *searcher) bestOK(c *cand) int {
	best := -1
	for _, i := range c.oks {
		if best < 0 || s.cost(s.res.Trials[i]) < s.cost(s.res.Trials[best]) {
			best = i
		}
	}
	return best
}

func (s *searcher) alive() []*cand {
	var a []*cand
	for _, c := range s.cands {
		if c.Dropped == "" {
			a = append(a, c)
		}
	}
	return a
}
