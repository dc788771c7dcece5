package trial

import (
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
)

// Seed 004's SLO: p99 <= 1ms and p999 <= 5ms. A trial whose p99 holds but
// whose p999 does not is a KO named for the p999; the trial's line shows both.
func TestSeed004SLOJudgesP999(t *testing.T) {
	s, err := ParseSLO("p99<=1ms,p999<=5ms")
	if err != nil {
		t.Fatal(err)
	}
	load := func(p99, p999 time.Duration) *record.Report {
		return &record.Report{Requests: 1000, Success: 1, Throughput: 1000, Latencies: record.Latencies{P99: p99, P999: p999}}
	}
	if f := s.Failed(Facts{Load: load(800*time.Microsecond, 6*time.Millisecond), Rate: 1000}); len(f) != 1 || f[0] != "p999 latency 6ms is over the 5ms limit" {
		t.Errorf("p999 of 6ms under p999<=5ms: failed %q", f)
	}
	if f := s.Failed(Facts{Load: load(800*time.Microsecond, 4*time.Millisecond), Rate: 1000}); len(f) != 0 {
		t.Errorf("p99 0.8ms and p999 4ms failed %q", f)
	}
	r := &Result{Spec: Spec{CPUs: 1, MemoryBytes: 128 << 20}, Verdict: OK, Load: load(800*time.Microsecond, 4200*time.Microsecond)}
	if l := r.Line(); !strings.HasSuffix(l, "| p99 800µs | p99.9 4.2ms") {
		t.Errorf("line %q lacks p99 and p99.9", l)
	}
}
