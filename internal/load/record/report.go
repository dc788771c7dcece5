package record

import "time"

// Report is the result of one phase, or of several phases merged. The JSON
// keys are a published interface (`jvmfit load --json`, `jvmfit run --json`):
// keep them as they are.
type Report struct {
	Phase       string           `json:"phase,omitempty"`
	Model       string           `json:"model,omitempty"` // "open" or "closed"
	Requests    int64            `json:"requests"`
	Rate        float64          `json:"rate"` // requests started per second (achieved)
	TargetRate  float64          `json:"target_rate,omitempty"`
	Throughput  float64          `json:"throughput"` // successful responses per second
	Success     float64          `json:"success"`    // ratio of successes, 0..1
	Duration    time.Duration    `json:"duration"`   // ns
	BytesIn     int64            `json:"bytes_in"`   // answers as received: status line, headers, body (chunk framing included)
	BytesOut    int64            `json:"bytes_out"`  // requests as sent: request line, headers, body
	Late        int64            `json:"late"`       // open model: sent after their intended time
	Dropped     int64            `json:"dropped"`    // open model: never sent
	StatusCodes map[string]int64 `json:"status_codes"`
	Errors      []string         `json:"errors"` // top distinct errors, "count× text"
	Latencies   Latencies        `json:"latencies"`
	// SendLateness (open model) is how long after its intended time each
	// request was sent: the generator's own delay, which Latencies include
	// because they count from the intended time. A p99 here near the
	// latencies' means the generator, not the service, is the bottleneck.
	SendLateness *Latencies `json:"send_lateness,omitempty"`
	// ByRequest holds the same figures per named request.
	ByRequest map[string]*Report `json:"by_request,omitempty"`
}

// Latencies are in nanoseconds in JSON (time.Duration).
type Latencies struct {
	Min   time.Duration `json:"min"`
	Mean  time.Duration `json:"mean"`
	P50   time.Duration `json:"p50"`
	P90   time.Duration `json:"p90"`
	P95   time.Duration `json:"p95"`
	P99   time.Duration `json:"p99"`
	P999  time.Duration `json:"p999"`
	P9999 time.Duration `json:"p9999"`
	Max   time.Duration `json:"max"`
}
