package load

import (
	"fmt"
	"sort"
	"strconv"
	"sync/atomic"
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
}

func newTally() *tally {
	return &tally{hist: NewHistogram(), errors: map[string]int64{}}
}

// maxErrorKinds bounds the distinct error texts kept per tally; the rest
// count under one line.
const maxErrorKinds = 50

func (t *tally) add(o *outcome) {
	t.requests++
	t.bytesIn += o.in
	t.bytesOut += o.out
	if o.late {
		t.late++
	}
	if o.done.After(t.lastDone) {
		t.lastDone = o.done
	}
	if o.recordLatency {
		us := o.latency.Microseconds()
		t.hist.RecordValue(min(max(us, histLowest), histHighest))
	}
	t.statuses[o.status]++
	if o.ok {
		t.ok++
		return
	}
	key := o.errKey
	if _, seen := t.errors[key]; !seen && len(t.errors) >= maxErrorKinds {
		key = "other errors"
	}
	t.errors[key]++
}

func (t *tally) merge(o *tally) {
	t.hist.Merge(o.hist)
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

// outcome is one finished request.
type outcome struct {
	req           int
	status        int // 0 = no answer
	ok            bool
	errKey        string
	latency       time.Duration
	recordLatency bool
	in, out       int64
	late          bool
	done          time.Time
}

// recorder collects a phase's outcomes. Only the phase's loop writes to it;
// the progress line reads the counters from another goroutine.
type recorder struct {
	byReq []*tally
	// live counters for the progress line
	sent, errs, late atomic.Int64
}

func newRecorder(nreq int) *recorder {
	return &recorder{byReq: make([]*tally, nreq)}
}

func (r *recorder) sentCount() int64 { return r.sent.Load() }

func (r *recorder) add(o *outcome) {
	r.sent.Add(1)
	if !o.ok {
		r.errs.Add(1)
	}
	if o.late {
		r.late.Add(1)
	}
	t := r.byReq[o.req]
	if t == nil {
		t = newTally()
		r.byReq[o.req] = t
	}
	t.add(o)
}

// tallies returns one tally per request (nil where nothing was sent), once
// the loop has ended.
func (r *recorder) tallies() []*tally { return r.byReq }

// report turns a tally into the published Report. span is the phase's
// length for the achieved rate (see phaseSpan).
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
