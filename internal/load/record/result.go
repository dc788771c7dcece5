package record

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Phase is what one phase produced: its outcomes and the times the rates
// are judged on.
type Phase struct {
	Name    string
	Model   string // "open" or "closed"
	Record  bool   // counted in the total (false: a warm-up or set-up)
	Rec     *Recorder
	Span    time.Duration // the scheduled length, for the achieved rate
	Elapsed time.Duration // start to last answer, for the throughput
	Dropped int64         // open model: never sent
	Target  float64       // open model: the mean target rate
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

// Add appends a phase's report and histograms, and counts a recorded
// phase towards the total.
func (res *Result) Add(p *Phase) {
	all := newTally()
	ph := &PhaseHistograms{Phase: p.Name, Record: p.Record, ByRequest: map[string]*hdr.Histogram{}}
	by := map[string]*Report{}
	for i, t := range p.Rec.byReq {
		if t == nil {
			continue
		}
		all.merge(t)
		name := p.Rec.names[i]
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
		by[name] = t.report(p.Span, p.Elapsed)
	}
	ph.All = all.hist
	r := all.report(p.Span, p.Elapsed)
	r.Phase, r.Model, r.TargetRate, r.Dropped = p.Name, p.Model, p.Target, p.Dropped
	if len(by) > 1 {
		r.ByRequest = by
	}
	res.Phases = append(res.Phases, r)
	res.Histograms = append(res.Histograms, ph)
	if p.Record {
		res.total = append(res.total, all)
	}
	res.spans = append(res.spans, spans{p.Record, p.Span, p.Elapsed, p.Dropped, p.Target})
}

type spans struct {
	record        bool
	span, elapsed time.Duration
	dropped       int64
	target        float64
}

// Merge sets Total from the recorded phases added so far.
func (res *Result) Merge() {
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
	res.Total = r
}
