package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func TestMarkdownCellsStayInert(t *testing.T) {
	tb := Table{Header: []string{"a", "b"}, Rows: [][]string{{"x|y", "<img src=x>\nnext"}, {"p99 < 200ms", "a\\|b"}}}
	var buf bytes.Buffer
	tb.markdown(&buf)
	got := buf.String()
	want := "| a | b |\n|---|---|\n| x\\|y | &lt;img src=x> next |\n| p99 < 200ms | a\\\\\\|b |\n\n"
	if got != want {
		t.Errorf("markdown:\n got %q\nwant %q", got, want)
	}
}

func TestCSVColumnsAndQuoting(t *testing.T) {
	r := &trial.Result{ID: 7, Spec: trial.Spec{AppName: "a,\"b\"\nc", JVMOptions: []string{"-Xmx64m", "-Dx=a b"}, MemoryBytes: 1 << 27, CPUs: 0.5, Rate: 100},
		Verdict: trial.OK, Load: &record.Report{Throughput: 99.5, Success: 1, Latencies: record.Latencies{P99: 1500 * time.Microsecond}},
		Summary: trial.Summary{GCTime: 250 * time.Millisecond}}
	var buf bytes.Buffer
	if err := CSV(&buf, []*trial.Result{r}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v, %d rows", err, len(rows))
	}
	got := map[string]string{}
	for i, h := range rows[0] {
		got[h] = rows[1][i]
	}
	want := map[string]string{"id": "7", "app": "a,\"b\"\nc", "cpus": "0.5", "memory_bytes": "134217728", "rate": "100",
		"jvm_options": "-Xmx64m -Dx=a b", "verdict": "OK", "p99_ms": "1.5", "throughput": "99.5", "gc_seconds": "0.25", "exit_code": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("column %s = %q, want %q", k, got[k], v)
		}
	}
	if len(rows[0]) != len(csvColumns) || strings.Join(rows[0][:3], ",") != "id,experiment,key" {
		t.Errorf("header = %v", rows[0])
	}
}
