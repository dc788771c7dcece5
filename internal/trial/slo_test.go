package trial

import (
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
)

func TestParseSLO(t *testing.T) {
	s, err := ParseSLO("p99<=200ms, p999<=1s,success>=0.999,throughput>=0.98*rate,start<=60s,memory<=300Mi,throughput>50")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 7 {
		t.Fatalf("%d clauses", len(s))
	}
	if s[0].Metric != "p99" || s[0].Value != 0.2 || s[3].OfRate != true || s[3].Value != 0.98 || s[5].Value != 300<<20 || s[6].Op != ">" {
		t.Fatalf("parsed %+v", s)
	}
	if p, _ := ParseSLO("success>=99.5%"); p[0].Value != 0.995 {
		t.Fatalf("percent: %v", p[0].Value)
	}
	if p, _ := ParseSLO(""); len(p) != 0 {
		t.Fatal("empty SLO should have no clauses")
	}
}

func TestBadSLOClauses(t *testing.T) {
	for in, want := range map[string]string{
		"p98<=1s":            `unknown metric "p98"`,
		"p99<=fast":          `"fast" is not a duration`,
		"p99>=1s":            "ceiling",
		"success<=0.5":       "floor",
		"success>=2":         "not a ratio",
		"throughput>=0.9*rt": "requests per second or RATIO*rate",
		"memory<=lots":       "bad size",
		"p99":                "expected METRIC<=VALUE",
		"p99=<1s":            "unknown comparison",
	} {
		_, err := ParseSLO("start<=1m," + in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), in) {
			t.Errorf("%s: error %v, want it to quote the clause and say %q", in, err, want)
		}
	}
}

func TestSLONamesEveryFailedClause(t *testing.T) {
	s, err := ParseSLO("p99<=200ms,p999<=1s,success>=0.999,throughput>=0.98*rate,start<=5s,memory<=300Mi,max<=10s")
	if err != nil {
		t.Fatal(err)
	}
	rep := &record.Report{Success: 0.97, Throughput: 95,
		Latencies: record.Latencies{P99: 312 * time.Millisecond, P999: 900 * time.Millisecond, Max: 2 * time.Second}}
	failed := s.Failed(Facts{Load: rep, Rate: 100, StartSeconds: 7.5, MemoryPeak: 310 << 20})
	want := []string{
		"p99 latency 312ms is over the 200ms limit",
		"success 97% is under the 99.9% floor",
		"throughput 95.0 req/s is under the 98.0 req/s floor (0.98 × rate 100)",
		"start took 7.5s, over the 5s limit",
		"memory peak 310Mi is over the 300Mi limit",
	}
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Fatalf("failed:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	ok := s.Failed(Facts{Load: &record.Report{Success: 1, Throughput: 99, Latencies: record.Latencies{P99: time.Millisecond}}, Rate: 100, StartSeconds: 1, MemoryPeak: 100 << 20})
	if len(ok) != 0 {
		t.Fatalf("a passing trial failed: %q", ok)
	}
}

func TestSLOWithoutLoadJudgesStartAndMemoryOnly(t *testing.T) {
	s, _ := ParseSLO("p99<=1ms,success>=1,throughput>=0.9*rate,start<=1s")
	if f := s.Failed(Facts{StartSeconds: 0.5}); len(f) != 0 {
		t.Fatalf("no-load trial failed on load clauses: %q", f)
	}
	if f := s.Failed(Facts{StartSeconds: 2}); len(f) != 1 || !strings.HasPrefix(f[0], "start took 2s") {
		t.Fatalf("got %q", f)
	}
}

func TestThroughputOfRateNeedsARate(t *testing.T) {
	s, _ := ParseSLO("throughput>=0.9*rate")
	f := s.Failed(Facts{Load: &record.Report{Throughput: 1000}})
	if len(f) != 1 || !strings.Contains(f[0], "no target rate") {
		t.Fatalf("got %q", f)
	}
}

// memory judges the cgroup peak, working_set the working set's: a trial
// whose page cache puts its peak over the line while its working set stays
// under fails the one and passes the other.
func TestSLOMemoryAndWorkingSet(t *testing.T) {
	facts := Facts{MemoryPeak: 128 << 20, WorkingSetPeak: 103 << 20}
	for _, c := range []struct {
		slo  string
		want string
	}{
		{"memory<=120Mi", "memory peak 128Mi is over the 120Mi limit"},
		{"working_set<=120Mi", ""},
		{"working_set<=100Mi", "working set peak 103Mi is over the 100Mi limit"},
		{"memory<=200Mi,working_set<=200Mi", ""},
		{"WORKING_SET<=100Mi", "working set peak 103Mi is over the 100Mi limit"},
	} {
		s, err := ParseSLO(c.slo)
		if err != nil {
			t.Fatalf("%s: %v", c.slo, err)
		}
		if got := strings.Join(s.Failed(facts), "; "); got != c.want {
			t.Errorf("%s: failed %q, want %q", c.slo, got, c.want)
		}
	}
	s, _ := ParseSLO("working_set<=1Gi")
	if f := s.Failed(Facts{MemoryPeak: 1 << 20}); len(f) != 1 || !strings.Contains(f[0], "not measured") {
		t.Errorf("unmeasured working set: %q", f)
	}
	for in, want := range map[string]string{"working_set>=1Mi": "ceiling", "working_set<=big": "bad size", "workingset<=1Mi": "working_set"} {
		if _, err := ParseSLO(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// The verdict passes the trial's working-set peak to the SLO.
func TestJudgeWorkingSetClause(t *testing.T) {
	slo, _ := ParseSLO("working_set<=100Mi")
	r := &Result{Spec: Spec{MemoryBytes: 256 << 20}, MemoryPeakBytes: 200 << 20, WorkingSetPeakBytes: 90 << 20, Load: &record.Report{Requests: 1}}
	judge(r, slo, outcome{rd: ready})
	if r.Verdict != OK {
		t.Fatalf("%s %q", r.Verdict, r.Failed)
	}
	r.WorkingSetPeakBytes = 110 << 20
	judge(r, slo, outcome{rd: ready})
	if r.Verdict != KO || r.Kind != KindSLO || r.Failed[0] != "working set peak 110Mi is over the 100Mi limit" {
		t.Fatalf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
}
