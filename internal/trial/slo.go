package trial

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/size"
)

// DefaultSLO applies when neither --slo nor the descriptor gives one: the
// app must start and answer; latency and throughput targets are the user's
// call.
const DefaultSLO = "success>=0.99"

// SLO is a parsed list of clauses; all must hold for OK.
type SLO []Clause

// Clause is one "metric op value" term, e.g. p99<=200ms.
type Clause struct {
	Metric string  // p50..p9999, max, mean, success, throughput, start, memory, working_set
	Op     string  // <=, <, >=, >
	Value  float64 // seconds, ratio, req/s, bytes, or a factor of the rate
	OfRate bool    // throughput >= Value*rate
	Text   string  // as written
}

var latencyMetrics = map[string]func(record.Latencies) time.Duration{
	"p50":   func(l record.Latencies) time.Duration { return l.P50 },
	"p90":   func(l record.Latencies) time.Duration { return l.P90 },
	"p95":   func(l record.Latencies) time.Duration { return l.P95 },
	"p99":   func(l record.Latencies) time.Duration { return l.P99 },
	"p999":  func(l record.Latencies) time.Duration { return l.P999 },
	"p9999": func(l record.Latencies) time.Duration { return l.P9999 },
	"max":   func(l record.Latencies) time.Duration { return l.Max },
	"mean":  func(l record.Latencies) time.Duration { return l.Mean },
}

// ParseSLO reads "p99<=200ms,success>=0.999,throughput>=0.98*rate,
// start<=60s,memory<=300Mi,working_set<=250Mi". An empty string is an empty
// SLO.
//
// memory is the cgroup's peak, page cache included; working_set is the peak
// of usage minus inactive file pages (what the kubelet evicts on). memory
// stays the cgroup peak: an SLO written before working_set existed keeps its
// meaning (its stored verdicts and sweep keys with it), and it is the
// stricter figure, so a trial that meets memory<=X meets working_set<=X.
func ParseSLO(s string) (SLO, error) {
	var out SLO
	for _, text := range strings.Split(s, ",") {
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		c, err := parseClause(text)
		if err != nil {
			return nil, fmt.Errorf("bad SLO clause %q: %w", text, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseClause(text string) (Clause, error) {
	c := Clause{Text: text}
	i := strings.IndexAny(text, "<>=")
	if i <= 0 {
		return c, fmt.Errorf("expected METRIC<=VALUE or METRIC>=VALUE, e.g. p99<=200ms")
	}
	c.Metric = strings.ToLower(strings.TrimSpace(text[:i]))
	rest := text[i:]
	for _, op := range []string{"<=", ">=", "<", ">"} {
		if strings.HasPrefix(rest, op) {
			c.Op = op
			break
		}
	}
	if c.Op == "" {
		return c, fmt.Errorf("unknown comparison in %q: use <=, <, >= or >", rest)
	}
	val := strings.TrimSpace(rest[len(c.Op):])
	upper := c.Op[0] == '<'
	var err error
	switch {
	case latencyMetrics[c.Metric] != nil || c.Metric == "start":
		err = c.ceiling(upper, val, func(v string) (float64, error) {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return 0, fmt.Errorf("%q is not a duration (e.g. 200ms, 1s)", v)
			}
			return d.Seconds(), nil
		})
	case c.Metric == "memory" || c.Metric == "working_set":
		err = c.ceiling(upper, val, func(v string) (float64, error) {
			b, err := size.Parse(v)
			return float64(b), err
		})
	case c.Metric == "success":
		err = c.floor(upper, val, ratio)
	case c.Metric == "throughput":
		err = c.floor(upper, val, c.throughput)
	default:
		err = fmt.Errorf("unknown metric %q: use p50, p90, p95, p99, p999, p9999, max, mean, success, throughput, start, memory or working_set", c.Metric)
	}
	return c, err
}

// ceiling reads a metric that must stay at or under its value.
func (c *Clause) ceiling(upper bool, val string, parse func(string) (float64, error)) error {
	if !upper {
		return fmt.Errorf("%s is a ceiling: write %s<=%s", c.Metric, c.Metric, val)
	}
	v, err := parse(val)
	c.Value = v
	return err
}

// floor reads a metric that must stay at or over its value.
func (c *Clause) floor(upper bool, val string, parse func(string) (float64, error)) error {
	if upper {
		return fmt.Errorf("%s is a floor: write %s>=%s", c.Metric, c.Metric, val)
	}
	v, err := parse(val)
	c.Value = v
	return err
}

// throughput reads req/s, or RATIO*rate (then OfRate).
func (c *Clause) throughput(val string) (float64, error) {
	num := val
	if f, ok := strings.CutSuffix(strings.ReplaceAll(val, " ", ""), "*rate"); ok {
		num, c.OfRate = f, true
	} else if val == "rate" {
		num, c.OfRate = "1", true
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a number of requests per second or RATIO*rate", val)
	}
	return v, nil
}

// ratio reads 0.999 or 99.9%.
func ratio(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if pct {
		v /= 100
	}
	if err != nil || v < 0 || v > 1 {
		return 0, fmt.Errorf("%q is not a ratio between 0 and 1 (e.g. 0.999 or 99.9%%)", s)
	}
	return v, nil
}

// Facts are what a trial measured, for the SLO to judge.
type Facts struct {
	Load         *record.Report // measured phase; nil when no load was run
	Rate         float64        // target rate of the measured phase, 0 if none
	StartSeconds float64
	MemoryPeak   int64 // the cgroup's peak
	// WorkingSetPeak is the peak of usage minus inactive file pages; 0
	// when it was not measured (no cgroup).
	WorkingSetPeak int64
}

// Failed returns every clause that does not hold, in plain words. Clauses
// about load are skipped when no load was run (a start-only trial).
func (s SLO) Failed(f Facts) []string {
	var out []string
	for _, c := range s {
		if msg := c.check(f); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

func (c Clause) check(f Facts) string {
	switch {
	case latencyMetrics[c.Metric] != nil:
		if f.Load == nil {
			return ""
		}
		got := latencyMetrics[c.Metric](f.Load.Latencies)
		if !c.holds(got.Seconds()) {
			return fmt.Sprintf("%s latency %s is over the %s limit", c.Metric, roundDur(got), roundDur(secs(c.Value)))
		}
	case c.Metric == "start":
		if !c.holds(f.StartSeconds) {
			return fmt.Sprintf("start took %s, over the %s limit", roundDur(secs(f.StartSeconds)), roundDur(secs(c.Value)))
		}
	case c.Metric == "memory":
		if !c.holds(float64(f.MemoryPeak)) {
			return fmt.Sprintf("memory peak %s is over the %s limit", size.Format(f.MemoryPeak), size.Format(int64(c.Value)))
		}
	case c.Metric == "working_set":
		if f.WorkingSetPeak <= 0 {
			return fmt.Sprintf("%s: the working set was not measured (it needs the trial's cgroup; not with --no-limits)", c.Text)
		}
		if !c.holds(float64(f.WorkingSetPeak)) {
			return fmt.Sprintf("working set peak %s is over the %s limit", size.Format(f.WorkingSetPeak), size.Format(int64(c.Value)))
		}
	case c.Metric == "success":
		if f.Load == nil {
			return ""
		}
		if !c.holds(f.Load.Success) {
			return fmt.Sprintf("success %s is under the %s floor", pct(f.Load.Success), pct(c.Value))
		}
	case c.Metric == "throughput":
		if f.Load == nil {
			return ""
		}
		want, how := c.Value, ""
		if c.OfRate {
			if f.Rate <= 0 {
				return fmt.Sprintf("throughput %s: the scenario's measured phase has no target rate; give --rate or an absolute throughput", c.Text)
			}
			want = c.Value * f.Rate
			how = fmt.Sprintf(" (%g × rate %g)", c.Value, f.Rate)
		}
		if !(Clause{Op: c.Op, Value: want}).holds(f.Load.Throughput) {
			return fmt.Sprintf("throughput %.1f req/s is under the %.1f req/s floor%s", f.Load.Throughput, want, how)
		}
	}
	return ""
}

func (c Clause) holds(v float64) bool {
	switch c.Op {
	case "<=":
		return v <= c.Value
	case "<":
		return v < c.Value
	case ">=":
		return v >= c.Value
	default:
		return v > c.Value
	}
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func pct(r float64) string { return strconv.FormatFloat(r*100, 'g', 4, 64) + "%" }
