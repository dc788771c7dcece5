package record

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range: 1 µs to 60 s at 3 significant digits, recorded in
// microseconds.
const (
	histLowest  = 1
	histHighest = 60_000_000
	histDigits  = 3
)

// NewHistogram returns an empty latency histogram in microseconds.
func NewHistogram() *hdr.Histogram { return hdr.New(histLowest, histHighest, histDigits) }

// tally is what one request name collected in one shard.
type tally struct {
	hist      *hdr.Histogram
	requests  int64
	ok        int64
	bytesIn   int64
	bytesOut  int64
	late      int64
	statuses  [1000]int64 // by code; 0 = no answer (codes are 100-999)
	errors    map[string]int64
	lastDone  time.Time
	firstSent time.Time
	// lateness: open model only (nil otherwise), how long after its
	// intended time each request was sent, in microseconds.
	lateness *hdr.Histogram
}

func newTally() *tally {
	return &tally{hist: NewHistogram(), errors: map[string]int64{}}
}

// maxErrorKinds bounds the distinct error texts kept per tally; the rest
// count under one line.
const maxErrorKinds = 50

func (t *tally) add(o *Outcome) {
	t.requests++
	t.bytesIn += o.In
	t.bytesOut += o.Out
	if o.Late {
		t.late++
	}
	if o.Paced {
		if t.lateness == nil {
			t.lateness = NewHistogram()
		}
		t.lateness.RecordValue(min(max(o.Lateness.Microseconds(), 0), histHighest))
	}
	if o.Done.After(t.lastDone) {
		t.lastDone = o.Done
	}
	if o.RecordLatency {
		us := o.Latency.Microseconds()
		t.hist.RecordValue(min(max(us, histLowest), histHighest))
	}
	t.statuses[o.Status]++
	if o.OK {
		t.ok++
		return
	}
	key := o.Err
	if _, seen := t.errors[key]; !seen && len(t.errors) >= maxErrorKinds {
		key = "other errors"
	}
	t.errors[key]++
}

func (t *tally) merge(o *tally) {
	t.hist.Merge(o.hist)
	if o.lateness != nil {
		if t.lateness == nil {
			t.lateness = NewHistogram()
		}
		t.lateness.Merge(o.lateness)
	}
	t.requests += o.requests
	t.ok += o.ok
	t.bytesIn += o.bytesIn
	t.bytesOut += o.bytesOut
	t.late += o.late
	for k, v := range o.statuses {
		t.statuses[k] += v
	}
	for k, v := range o.errors {
		t.errors[k] += v
	}
	if o.lastDone.After(t.lastDone) {
		t.lastDone = o.lastDone
	}
}

// Outcome is one finished request, as the engine saw it.
type Outcome struct {
	Req           int  // the request's index in the scenario
	Status        int  // 0 = no answer
	OK            bool // an expected status
	Err           string
	Latency       time.Duration
	RecordLatency bool // answered or timed out: the latency belongs in the histogram
	In, Out       int64
	Late          bool
	// Paced: the request had an intended send time (open model), and
	// Lateness is how long after it the generator sent the request.
	Paced    bool
	Lateness time.Duration
	Done     time.Time
}

// report turns a tally into the published Report. span is the phase's
// length, for the achieved rate; elapsed runs to its last answer.
func (t *tally) report(span, elapsed time.Duration) *Report {
	r := &Report{
		Requests:    t.requests,
		BytesIn:     t.bytesIn,
		BytesOut:    t.bytesOut,
		Late:        t.late,
		Duration:    elapsed,
		StatusCodes: map[string]int64{},
		Errors:      topErrors(t.errors, 10),
	}
	for k, v := range t.statuses {
		if v > 0 {
			r.StatusCodes[strconv.Itoa(k)] = v
		}
	}
	if span > 0 {
		r.Rate = float64(t.requests) / span.Seconds()
	}
	if elapsed > 0 {
		r.Throughput = float64(t.ok) / elapsed.Seconds()
	}
	if t.requests > 0 {
		r.Success = float64(t.ok) / float64(t.requests)
	}
	r.Latencies = latencies(t.hist)
	if t.lateness != nil && t.lateness.TotalCount() > 0 {
		l := latencies(t.lateness)
		r.SendLateness = &l
	}
	return r
}

func latencies(h *hdr.Histogram) Latencies {
	if h.TotalCount() == 0 {
		return Latencies{}
	}
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	return Latencies{
		Min:   us(h.Min()),
		Mean:  time.Duration(h.Mean() * float64(time.Microsecond)),
		P50:   us(h.ValueAtQuantile(50)),
		P90:   us(h.ValueAtQuantile(90)),
		P95:   us(h.ValueAtQuantile(95)),
		P99:   us(h.ValueAtQuantile(99)),
		P999:  us(h.ValueAtQuantile(99.9)),
		P9999: us(h.ValueAtQuantile(99.99)),
		Max:   us(h.Max()),
	}
}

func topErrors(m map[string]int64, n int) []string {
	type kv struct {
		k string
		v int64
	}
	var all []kv
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].k < all[j].k
	})
	out := []string{}
	for i, e := range all {
		if i == n {
			break
		}
		out = append(out, fmt.Sprintf("%d× %s", e.v, e.k))
	}
	return out
}
