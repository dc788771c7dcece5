package report

import (
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The trials table gives the p99.9 beside the p99 (seed 004's SLO judges both).
func TestTrialTableShowsP999(t *testing.T) {
	r := &trial.Result{ID: 1, Spec: trial.Spec{AppName: "sidecar", CPUs: 1, MemoryBytes: 128 * size.MiB, Rate: 1000},
		Verdict: trial.OK, Load: &record.Report{Rate: 1000, Throughput: 1000, Success: 1,
			Latencies: record.Latencies{P99: 900 * time.Microsecond, P999: 4 * time.Millisecond}}}
	tt := TrialTable([]*trial.Result{r})
	i, j := indexOf(tt.Header, "p99"), indexOf(tt.Header, "p99.9")
	if i < 0 || j != i+1 {
		t.Fatalf("header %v: want p99.9 right after p99", tt.Header)
	}
	if got := tt.Rows[0][j]; got != ms(4*time.Millisecond) || got == tt.Rows[0][i] {
		t.Errorf("p99.9 cell %q, p99 cell %q", got, tt.Rows[0][i])
	}
}
