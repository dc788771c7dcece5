package scenario

import (
	"strconv"
	"time"
)

// Scenario is a parsed, validated scenario: every variable is known, every
// number is a number. Fields are exported so that callers (the CLI, the trial
// runner) can adjust a scenario built by SingleURL before running it.
type Scenario struct {
	Name     string
	Base     string // target base URL, e.g. http://127.0.0.1:8080
	Vars     map[string]string
	Timeout  time.Duration // per request; 0 = DefaultTimeout
	Requests []*Request
	Phases   []*Phase
	// Files is vars.files: the size of the ${file} walk (0 = not set).
	Files int
}

// Request is one named request.
type Request struct {
	Name    string
	Method  string
	url     *template // path (and query), relative to the target
	abs     string    // "scheme://host:port" when the URL was absolute
	headers []header
	body    bodySpec
	Expect  []int // empty = any 2xx
}

// Origin is the scheme://host:port of an absolute URL, "" for a URL
// relative to the scenario's base.
func (r *Request) Origin() string { return r.abs }

type header struct {
	name  string
	value *template
}

// Models.
const (
	Open   = "open"
	Closed = "closed"
)

// Phase is one stretch of load. Zero limits mean "not set".
type Phase struct {
	Name       string
	Record     bool
	Model      string // Open or Closed
	Workers    int
	Iterations int64 // per worker (closed)
	Requests   int64 // total
	Duration   time.Duration
	Rate       float64 // open: constant rate, req/s
	RampFrom   float64 // open: linear ramp, used when RampTo > 0
	RampTo     float64
	// Steps is the per-worker cycle (a sequence with repeats unrolled);
	// Mix is the weighted alternative. Exactly one is set.
	Steps       []string
	Mix         map[string]float64
	FileOffset  string // "spread" or "zero"
	Every       *Every
	MaxInflight int
	Timeout     time.Duration
	LateAfter   time.Duration
}

// Every is a periodic extra request per worker (seed 001's deletions).
type Every struct {
	Iterations int64
	Request    string
	Fraction   float64
}

// Defaults.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxInflight = 10000
	// DefaultLateAfter is how far behind its intended time a request may be
	// sent before it counts as late: well above timer jitter on a busy host.
	DefaultLateAfter = 10 * time.Millisecond
	// DefaultDrain is how long a phase waits for answers still in flight
	// after its schedule ends; requests unanswered then are aborted.
	DefaultDrain = 2 * time.Second
)

// SingleURL is the scenario of `jvmfit load URL`: one GET-like request
// named after its method and path, in one recorded open phase at 1 req/s
// for 1 s. The caller sets the phase's model and limits (or Options do).
func SingleURL(method, rawURL string) (*Scenario, error) {
	return Single(RequestSpec{Method: method, URL: rawURL})
}

// RequestSpec is one request given on the command line.
type RequestSpec struct {
	Method  string
	URL     string
	Headers map[string]string // values may use ${worker}, ${iter}
	Body    []byte
	Expect  []int // empty = any 2xx
}

// Single is SingleURL with headers, a body and expected statuses.
func Single(spec RequestSpec) (*Scenario, error) {
	u, err := ParseURL(spec.URL)
	if err != nil {
		return nil, err
	}
	method := spec.Method
	if method == "" {
		method = "GET"
	}
	name := method + " " + u.Path
	rr := &rawRequest{Method: method, URL: u.Path, Headers: spec.Headers}
	for _, c := range spec.Expect {
		rr.Expect = append(rr.Expect, strconv.Itoa(c))
	}
	raw := &rawScenario{
		Base:     u.Origin,
		Requests: map[string]*rawRequest{name: rr},
		Phases:   []*rawPhase{{Name: "measure", Model: Open, Rate: "1", Duration: "1s"}},
	}
	sc, err := compile(raw, "", nil, "URL "+spec.URL)
	if err != nil {
		return nil, err
	}
	if spec.Body != nil {
		sc.Requests[0].body = bodySpec{kind: bodyBytes, data: spec.Body}
	}
	return sc, nil
}
