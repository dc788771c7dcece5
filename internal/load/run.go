package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Options adjust a scenario for one run.
type Options struct {
	Base        string        // overrides the scenario's base URL
	Rate        float64       // if > 0, the rate of every open phase (replaces ramps)
	Duration    time.Duration // if > 0, the duration of every recorded phase (count limits dropped)
	Warmup      time.Duration // if > 0, the duration of unrecorded phases (one is added if none); < 0 drops them
	Workers     int           // if > 0, the workers of every recorded phase
	MaxInflight int           // if > 0, the in-flight cap of open phases
	Drain       time.Duration // wait for answers after a phase's schedule; 0 = DefaultDrain
	AllowRemote bool          // permit non-loopback targets
	Progress    io.Writer     // live progress line; nil = none
}

// Result is one run.
type Result struct {
	Phases     []*Report          // every phase, in order, warm-up included
	Total      *Report            // the recorded phases merged
	Histograms []*PhaseHistograms // same order as Phases
	total      []*tally
	totalByReq map[string]*tally
	spans      []spans
}

// PhaseHistograms are a phase's latency distributions in microseconds.
type PhaseHistograms struct {
	Phase     string
	Record    bool
	All       *hdr.Histogram
	ByRequest map[string]*hdr.Histogram
}

// TotalHistogram merges the recorded phases' histograms (microseconds).
func (r *Result) TotalHistogram() *hdr.Histogram {
	h := NewHistogram()
	for _, ph := range r.Histograms {
		if ph.Record {
			h.Merge(ph.All)
		}
	}
	return h
}

// plan is a scenario with options applied and targets resolved.
type plan struct {
	sc     *Scenario
	phases []*Phase
	wires  []*wireReq
	index  map[string]int
	port   int
	drain  time.Duration
}

// Validate applies opts to sc and checks the result (limits, targets,
// loopback) without sending anything.
func Validate(ctx context.Context, sc *Scenario, opts Options) error {
	_, err := prepare(ctx, sc, opts)
	return err
}

func prepare(ctx context.Context, sc *Scenario, opts Options) (*plan, error) {
	if sc == nil {
		return nil, errors.New("no scenario")
	}
	pl := &plan{sc: sc, index: map[string]int{}, drain: opts.Drain}
	if pl.drain <= 0 {
		pl.drain = DefaultDrain
	}
	if opts.Rate < 0 || opts.Duration < 0 || opts.Workers < 0 || opts.MaxInflight < 0 {
		return nil, errors.New("rate, duration, workers and max-inflight must not be negative")
	}
	base, err := overrideBase(sc.Base, opts.Base)
	if err != nil {
		return nil, err
	}
	var baseHost, basePath string
	if base != "" {
		u, err := splitURL(base)
		if err != nil {
			return nil, err
		}
		baseHost, basePath = u.host, strings.TrimRight(u.path, "/")
		_, p, _ := splitHostPort(u.host)
		pl.port = p
	}
	if v, ok := sc.Vars["port"]; ok {
		p, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("vars.port: %q is not a port number", v)
		}
		pl.port = p
	}
	checked := map[string]bool{}
	for i, r := range sc.Requests {
		pl.index[r.Name] = i
		host, prefix := baseHost, basePath
		if r.abs != "" {
			u, _ := splitURL(r.abs)
			host, prefix = u.host, ""
		}
		if host == "" {
			return nil, fmt.Errorf("request %s: no target: give base: in the scenario or a target URL", r.Name)
		}
		if !checked[host] {
			if err := checkLoopback(ctx, host, opts.AllowRemote); err != nil {
				return nil, err
			}
			checked[host] = true
		}
		pl.wires = append(pl.wires, newWireReq(r, host, prefix))
	}
	pl.phases = applyOptions(sc.Phases, opts)
	for _, p := range pl.phases {
		if err := p.validate(); err != nil {
			return nil, fmt.Errorf("phase %s: %s", p.Name, errText(err))
		}
	}
	return pl, nil
}

// overrideBase points the scenario's base at target. A target without a
// path (the app's address, as jvmfit run gives it) keeps the scenario's
// path, so base: http://127.0.0.1:8080/petclinic still prefixes every
// relative URL with /petclinic; a target with a path replaces it.
func overrideBase(base, target string) (string, error) {
	if target == "" {
		return base, nil
	}
	u, err := splitURL(target)
	if err != nil {
		return "", fmt.Errorf("target: %s", errText(err))
	}
	if u.path != "/" || base == "" {
		return u.origin + u.path, nil
	}
	b, err := splitURL(base)
	if err != nil {
		return "", err
	}
	return u.origin + b.path, nil
}

func splitHostPort(hp string) (string, int, error) {
	i := len(hp) - 1
	for i >= 0 && hp[i] != ':' {
		i--
	}
	if i < 0 {
		return hp, 0, errors.New("no port")
	}
	p, err := strconv.Atoi(hp[i+1:])
	return hp[:i], p, err
}

func applyOptions(in []*Phase, opts Options) []*Phase {
	var out []*Phase
	hasWarmup := false
	for _, p := range in {
		// An unrecorded phase bounded by a count is set-up (seed 001 uploads
		// every file once); cutting it short would leave the service half
		// loaded, so --warmup resizes only the timed warm-ups.
		setup := !p.Record && (p.Requests > 0 || p.Iterations > 0)
		if !p.Record && !setup && opts.Warmup < 0 {
			continue
		}
		c := *p
		if !c.Record && !setup {
			hasWarmup = true
		}
		if opts.Rate > 0 && c.Model == Open {
			c.Rate, c.RampFrom, c.RampTo = opts.Rate, 0, 0
		}
		if opts.Duration > 0 && c.Record {
			c.Duration, c.Requests, c.Iterations = opts.Duration, 0, 0
		}
		if opts.Warmup > 0 && !c.Record && !setup {
			c.Duration, c.Requests, c.Iterations = opts.Warmup, 0, 0
		}
		if opts.Workers > 0 && c.Record {
			c.Workers = opts.Workers
		}
		if opts.MaxInflight > 0 {
			c.MaxInflight = opts.MaxInflight
		}
		out = append(out, &c)
	}
	if opts.Warmup > 0 && !hasWarmup {
		for i, p := range out {
			if p.Record {
				w := *p
				w.Name, w.Record = "warmup", false
				w.Duration, w.Requests, w.Iterations = opts.Warmup, 0, 0
				out = append(out[:i:i], append([]*Phase{&w}, out[i:]...)...)
				break
			}
		}
	}
	return out
}

// Run drives the scenario's phases in order. It returns when the last phase
// ends (each phase is bounded by its schedule plus the drain time), or soon
// after ctx is cancelled, with the phases run so far and ctx's error.
func Run(ctx context.Context, sc *Scenario, opts Options) (*Result, error) {
	pl, err := prepare(ctx, sc, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, p := range pl.phases {
		if ctx.Err() != nil {
			break
		}
		pr, err := pl.runPhase(ctx, p, opts.Progress)
		if err != nil {
			return nil, err
		}
		res.add(pl, p, pr)
	}
	res.Total = res.merged()
	return res, ctx.Err()
}

// Saturate finds the service's closed-loop capacity: the scenario's last
// recorded phase's requests, sent by concurrency workers back to back for d.
func Saturate(ctx context.Context, sc *Scenario, opts Options, concurrency int, d time.Duration) (*Report, error) {
	if concurrency < 1 || d <= 0 {
		return nil, errors.New("saturate: concurrency must be ≥ 1 and the duration > 0")
	}
	pl, err := prepare(ctx, sc, opts)
	if err != nil {
		return nil, err
	}
	var src *Phase
	for _, p := range pl.phases {
		if p.Record || src == nil {
			src = p
		}
	}
	p := *src
	p.Name, p.Model, p.Record = "saturation", Closed, true
	p.Workers, p.Duration, p.Requests, p.Iterations = concurrency, d, 0, 0
	pr, err := pl.runPhase(ctx, &p, opts.Progress)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	res.add(pl, &p, pr)
	return res.Phases[0], ctx.Err()
}

// phaseRun is what a phase produced.
type phaseRun struct {
	tallies []*tally
	start   time.Time
	span    time.Duration // for the achieved rate
	elapsed time.Duration // start to last answer
	dropped int64
	target  float64
}

func (pl *plan) runPhase(ctx context.Context, p *Phase, progress io.Writer) (*phaseRun, error) {
	l, err := newLoop(ctx)
	if err != nil {
		return nil, err
	}
	defer l.close()
	rec := newRecorder(len(pl.wires))
	stopProgress := startProgress(progress, p, rec)
	var pr *phaseRun
	if p.Model == Open {
		pr = pl.runOpen(l, p, rec)
	} else {
		pr = pl.runClosed(l, p, rec)
	}
	stopProgress()
	pr.tallies = rec.tallies()
	var last time.Time
	for _, t := range pr.tallies {
		if t != nil && t.lastDone.After(last) {
			last = t.lastDone
		}
	}
	pr.elapsed = max(last.Sub(pr.start), pr.span)
	return pr, nil
}

func (pl *plan) timeout(p *Phase) time.Duration {
	switch {
	case p.Timeout > 0:
		return p.Timeout
	case pl.sc.Timeout > 0:
		return pl.sc.Timeout
	}
	return DefaultTimeout
}

func (res *Result) add(pl *plan, p *Phase, pr *phaseRun) {
	all := newTally()
	ph := &PhaseHistograms{Phase: p.Name, Record: p.Record, ByRequest: map[string]*hdr.Histogram{}}
	by := map[string]*Report{}
	for i, t := range pr.tallies {
		if t == nil {
			continue
		}
		all.merge(t)
		name := pl.sc.Requests[i].Name
		ph.ByRequest[name] = t.hist
		if p.Record {
			if res.totalByReq == nil {
				res.totalByReq = map[string]*tally{}
			}
			if res.totalByReq[name] == nil {
				res.totalByReq[name] = newTally()
			}
			res.totalByReq[name].merge(t)
		}
		by[name] = t.report(pr.span, pr.elapsed)
	}
	ph.All = all.hist
	r := all.report(pr.span, pr.elapsed)
	r.Phase, r.Model, r.TargetRate, r.Dropped = p.Name, p.Model, pr.target, pr.dropped
	if len(by) > 1 {
		r.ByRequest = by
	}
	res.Phases = append(res.Phases, r)
	res.Histograms = append(res.Histograms, ph)
	if p.Record {
		res.total = append(res.total, all)
	}
	res.spans = append(res.spans, spans{p.Record, pr.span, pr.elapsed, pr.dropped, pr.target})
}

type spans struct {
	record        bool
	span, elapsed time.Duration
	dropped       int64
	target        float64
}

func (res *Result) merged() *Report {
	all := newTally()
	var span, elapsed time.Duration
	var dropped int64
	var target float64
	model := ""
	for i, s := range res.spans {
		if !s.record {
			continue
		}
		span += s.span
		elapsed += s.elapsed
		dropped += s.dropped
		target = s.target
		if model == "" || model == res.Phases[i].Model {
			model = res.Phases[i].Model
		} else {
			model = "mixed"
		}
	}
	for _, t := range res.total {
		all.merge(t)
	}
	r := all.report(span, elapsed)
	r.Phase, r.Model, r.Dropped, r.TargetRate = "total", model, dropped, target
	if len(res.totalByReq) > 1 {
		r.ByRequest = map[string]*Report{}
		for name, t := range res.totalByReq {
			r.ByRequest[name] = t.report(span, elapsed)
		}
	}
	return r
}
