package main

import (
	"bytes"
	"encoding/csv"
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

// multiDB holds reportDB's minmem experiment (id 1, with a stored answer)
// and two sweeps named demo-sweep (id 2) and other-sweep (id 3).
func multiDB(t *testing.T) string {
	t.Helper()
	path := reportDB(t)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetSummary(1, map[string]string{"headline": "144Mi, 1 CPU, --jvm default", "text": "- **Memory limit: 144Mi**\n"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"demo-sweep", "other-sweep"} {
		exp, _ := s.NewExperiment(name, store.KindSweep, nil)
		for i, rate := range []float64{50, 100} {
			r := &trial.Result{
				Spec:      trial.Spec{AppName: "demo", JVM: "default", JDKVersion: 17, MemoryBytes: 256 << 20, CPUs: 1, Rate: rate},
				Env:       trial.Env{HostCPUs: 2},
				StartedAt: time.Date(2025, 1, 2, 0, i, 0, 0, time.UTC), Verdict: trial.OK,
				Load: &record.Report{Throughput: rate, Success: 1, Latencies: record.Latencies{P99: 9 * time.Millisecond}},
			}
			if _, err := s.SaveTrial(exp, r); err != nil {
				t.Fatal(err)
			}
		}
		s.EndExperiment(exp)
	}
	return path
}

func TestReportSeveralExperiments(t *testing.T) {
	db := multiDB(t)
	for _, sel := range [][]string{{"-e", "minmem-demo,demo-sweep"}, {"-e", "1,demo"}, {"-e", "min,demo-s"}} {
		md, err := runReport(t, append([]string{"--db", db}, sel...)...)
		if err != nil {
			t.Fatalf("%v: %v", sel, err)
		}
		for _, want := range []string{"### Overview", "| 1 | minmem-demo | minmem | 3 | 2 | 1 |", "| 144Mi, 1 CPU, --jvm default |",
			"## minmem-demo (#1, minmem)", "### Recommendation\n\n- **Memory limit: 144Mi**", "## demo-sweep (#2, sweep)",
			"1 CPU: held at every rate tried", "This machine has 2 cores; the load generator and the services share them"} {
			if !strings.Contains(md, want) {
				t.Errorf("%v: report lacks %q:\n%s", sel, want, md)
			}
		}
		if strings.Contains(md, "other-sweep") {
			t.Errorf("%v: other-sweep was not asked for", sel)
		}
	}
	dir := t.TempDir() + "/"
	if _, err := runReport(t, "--db", db, "--all", "-o", dir); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if n := bytes.Count(page, []byte(`class="experiment-title"`)); n != 3 {
		t.Errorf("--all page has %d experiment sections, want 3", n)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "trials.csv"))
	if rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll(); err != nil || len(rows) != 1+3+2+2 {
		t.Errorf("--all csv: %d rows, %v; want a header and 7 trials", len(rows), err)
	}
	// One experiment renders as it always did: no overview.
	md, _ := runReport(t, "--db", db, "-e", "other-sweep")
	if strings.Contains(md, "Overview") || !strings.HasPrefix(md, "# jvmfit report: other-sweep\n") {
		t.Errorf("single experiment report changed:\n%s", md)
	}
}

func TestReportSelectionErrors(t *testing.T) {
	db := multiDB(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-e", "1,nope"}, `no experiment "nope"`},
		{[]string{"-e", "1,,2"}, "empty item"},
		{[]string{"-e", "1", "--all"}, "--all and --experiment"},
	} {
		_, err := runReport(t, append([]string{"--db", db}, c.args...)...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("report %v: err = %v; want a one-line usage error containing %q", c.args, err, c.want)
		}
	}
}
