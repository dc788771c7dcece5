package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// reportDB holds one minmem experiment of three trials.
func reportDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "jvmfit.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	exp, _ := s.NewExperiment("minmem-demo", store.KindMinMem, map[string]any{"cpus": 1})
	for i, m := range []int64{96, 128, 160} {
		r := &trial.Result{
			Spec:      trial.Spec{AppName: "demo, \"quoted\"", JVM: "default", JDKVersion: 17, MemoryBytes: m << 20, CPUs: 1, Rate: 50},
			StartedAt: time.Date(2025, 1, 1, 0, i, 0, 0, time.UTC), Verdict: trial.OK, StartSeconds: 2.5, HeapMaxBytes: m << 19,
			Load: &record.Report{Throughput: 50, Success: 1, Latencies: record.Latencies{P99: 9 * time.Millisecond}},
		}
		if i == 0 {
			r.Verdict, r.Kind, r.Load = trial.KO, trial.KindOOMKilled, nil
		}
		if _, err := s.SaveTrial(exp, r); err != nil {
			t.Fatal(err)
		}
	}
	s.EndExperiment(exp)
	return path
}

func runReport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"report"}, args...))
	err := root.Execute()
	return out.String(), err
}

func TestReportCommand(t *testing.T) {
	db := reportDB(t)
	md, err := runReport(t, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# jvmfit report: minmem-demo", "| 1 | 96Mi (48Mi) | KO (oom-killed) |", "| 1 | 128Mi (64Mi) | OK (2.5s start, 50req/s) |", "Lowest OK limit: 128Mi"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}

	dir := filepath.Join(t.TempDir(), "out") + "/"
	if _, err := runReport(t, "--db", db, "-e", "minmem-demo", "-o", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "report.md", "trials.csv", "trials.json"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "trials.csv"))
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(rows) != 4 || rows[1][3] != `demo, "quoted"` {
		t.Errorf("csv: %d rows, err %v, app cell %q", len(rows), err, rows[1][3])
	}
	var arr []map[string]any
	b, _ = os.ReadFile(filepath.Join(dir, "trials.json"))
	if err := json.Unmarshal(b, &arr); err != nil || len(arr) != 3 || arr[0]["verdict"] != "KO" {
		t.Errorf("json: %d results, err %v", len(arr), err)
	}

	file := filepath.Join(t.TempDir(), "r.html")
	if _, err := runReport(t, "--db", db, "-e", "1", "-o", file); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); !bytes.HasPrefix(b, []byte("<!doctype html>")) {
		t.Errorf("-o r.html did not write HTML")
	}
	list, err := runReport(t, "--db", db, "--list")
	if err != nil || !strings.Contains(list, "minmem-demo") || !strings.Contains(list, "minmem") {
		t.Errorf("--list: %v\n%s", err, list)
	}
}

func TestReportUsageErrors(t *testing.T) {
	db := reportDB(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "-e", "nope"}, `no experiment "nope"`},
		{[]string{"--db", filepath.Join(t.TempDir(), "missing.db")}, "no database at"},
		{[]string{"--db", db, "--format", "pdf"}, `--format "pdf"`},
		{[]string{"--db", db, "-o", filepath.Join(t.TempDir(), "r.txt")}, "cannot tell the format"},
	}
	for _, c := range cases {
		_, err := runReport(t, c.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("report %v: err = %v; want a one-line usage error containing %q", c.args, err, c.want)
		}
	}
}

// report --list shows when a run began (its trial's start), not when it
// was stored after the trial ended.
func TestReportListRunStarted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jvmfit.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2025, 3, 4, 5, 6, 0, 0, time.UTC)
	exp, _ := s.NewExperiment("run-demo", store.KindRun, nil)
	_, err = s.SaveTrial(exp, &trial.Result{Spec: trial.Spec{AppName: "demo", JVM: "default", MemoryBytes: 128 << 20, CPUs: 1},
		StartedAt: started, EndedAt: started.Add(time.Minute), Verdict: trial.OK})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	list, err := runReport(t, "--db", path, "--list")
	if want := started.Local().Format("2006-01-02 15:04"); err != nil || !strings.Contains(list, want) {
		t.Errorf("--list (err %v) lacks the run's start %s:\n%s", err, want, list)
	}
}
