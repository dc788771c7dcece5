package report

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Seed 002's trials start a database beside the app: its limit and peak
// show in the trials table and its peak in the sweep tables.
func TestServiceColumns(t *testing.T) {
	withDB := func(id int64, rate float64, peak int64, oom bool) *trial.Result {
		return &trial.Result{ID: id, Spec: trial.Spec{AppName: "inventory", CPUs: 1, MemoryBytes: 512 * size.MiB, Rate: rate},
			Verdict: trial.OK, MemoryPeakBytes: 200 * size.MiB,
			Load:     &record.Report{Rate: rate, Throughput: rate, Success: 1},
			Services: []trial.ServiceUsage{{Name: "db", Kind: "postgres", MemoryBytes: 256 * size.MiB, MemoryPeak: peak, OOMKilled: oom}}}
	}
	ts := []*trial.Result{withDB(1, 100, 70*size.MiB, false), withDB(2, 200, 90*size.MiB, true),
		{ID: 3, Spec: trial.Spec{AppName: "inventory", CPUs: 1, MemoryBytes: 512 * size.MiB, Rate: 300}, Verdict: trial.OK}}

	tt := TrialTable(ts)
	h := strings.Join(tt.Header, "|")
	if !strings.HasSuffix(h, "|db limit|db peak") {
		t.Fatalf("trials header %q lacks the db columns", h)
	}
	last := func(row []string, n int) string { return strings.Join(row[len(row)-n:], "|") }
	if got := last(tt.Rows[0], 2); got != "256Mi|70Mi" {
		t.Errorf("trial 1 db cells %q", got)
	}
	if got := last(tt.Rows[1], 1); got != "90Mi (OOM-killed)" {
		t.Errorf("trial 2 db peak %q", got)
	}
	if got := last(tt.Rows[2], 2); got != dash+"|"+dash {
		t.Errorf("trial without a db: %q", got)
	}

	sw := SweepTables(ts)[0]
	if i := indexOf(sw.Header, "db peak"); i < 0 || sw.Rows[0][i] != "70Mi" {
		t.Errorf("sweep header %v row %v: want a db peak of 70Mi", sw.Header, sw.Rows[0])
	}
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}
