package trial

import (
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/record"
)

func TestCell(t *testing.T) {
	lr := &record.Report{Throughput: 1003.4}
	cases := []struct {
		r    Result
		want string
	}{
		{Result{Verdict: OK, StartSeconds: 9.94, Load: lr}, "OK (9.9s start, 1003req/s)"},
		{Result{Verdict: KO, Kind: KindOOMKilled, Failed: []string{string(KindOOMKilled)}}, "KO (oom-killed)"},
		{Result{Verdict: KO, Kind: KindExited, Failed: []string{"exit code 1"}}, "KO (exited: exit code 1)"},
		{Result{Verdict: KO, Kind: KindSLO, StartSeconds: 4, Load: lr, Failed: []string{"p99 812ms > 200ms", "success 0.98 < 0.999"}},
			"KO (p99 812ms > 200ms; success 0.98 < 0.999; 4.0s start, 1003req/s)"},
		{Result{Verdict: KO, Kind: KindNotReady}, "KO (not-ready)"},
	}
	for _, c := range cases {
		if got := c.r.Cell(); got != c.want {
			t.Errorf("Cell = %q, want %q", got, c.want)
		}
	}
}
