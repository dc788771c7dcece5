package record

import (
	"sync/atomic"
	"time"
)

// Recorder collects a phase's outcomes, one tally per request name. Only
// the phase's event loop writes to it; the progress line reads the
// counters from another goroutine.
type Recorder struct {
	names []string // by request index
	byReq []*tally
	// live counters for the progress line
	sent, errs, late atomic.Int64
}

// NewRecorder records the requests named, by their index in the scenario.
func NewRecorder(names []string) *Recorder {
	return &Recorder{names: names, byReq: make([]*tally, len(names))}
}

func (r *Recorder) sentCount() int64 { return r.sent.Load() }

// Add records one finished request.
func (r *Recorder) Add(o *Outcome) {
	r.sent.Add(1)
	if !o.OK {
		r.errs.Add(1)
	}
	if o.Late {
		r.late.Add(1)
	}
	t := r.byReq[o.Req]
	if t == nil {
		t = newTally()
		r.byReq[o.Req] = t
	}
	t.add(o)
}

// LastDone is when the last answer (or failure) came, zero if none.
func (r *Recorder) LastDone() time.Time {
	var last time.Time
	for _, t := range r.byReq {
		if t != nil && t.lastDone.After(last) {
			last = t.lastDone
		}
	}
	return last
}
