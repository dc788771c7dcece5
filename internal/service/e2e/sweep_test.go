//go:build linux

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

type chart struct {
	Title  string `json:"title"`
	Series []struct {
		Name   string       `json:"name"`
		Points [][2]float64 `json:"points"`
	} `json:"series"`
}

// The CI-sized seed 002 sweep: 2 CPU counts x 3 rates with short phases,
// through `jvmfit sweep` and `jvmfit report`, asserting the three charts.
func TestSeed002SweepProducesTheThreeCharts(t *testing.T) {
	appYAML := prerequisites(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "sweep.db")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	out, err := run(t, ctx, dir, "sweep", "--app", appYAML, "--db", db, "--cpus", "1,2", "--rate", "20,40,60",
		"--memory", "512Mi", "--warmup", "2s", "--duration", "4s", "--slo", "success>=0.9")
	t.Logf("sweep output:\n%s", out)
	if err != nil && !strings.Contains(out, "Rate sweep") {
		t.Fatalf("sweep failed: %v", err)
	}
	html := filepath.Join(dir, "report.html")
	if _, err := run(t, ctx, dir, "report", "--db", db, "--format", "html", "-o", html); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="jvmfit-data">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no chart data in the HTML report")
	}
	var data struct {
		Charts []chart `json:"charts"`
	}
	if err := json.Unmarshal(m[1], &data); err != nil {
		t.Fatalf("chart data: %v", err)
	}
	found := map[string]chart{}
	for _, c := range data.Charts {
		found[c.Title] = c
	}
	for _, title := range []string{"Throughput against rate", "Latency against rate", "Success against rate"} {
		c, ok := found[title]
		if !ok {
			t.Errorf("no chart %q in the report", title)
			continue
		}
		perCPU := map[string]int{}
		for _, s := range c.Series {
			if strings.Contains(s.Name, "rate asked") || strings.HasSuffix(s.Name, " p99") {
				continue
			}
			name := strings.TrimSuffix(s.Name, " p50")
			perCPU[name] = len(s.Points)
			for _, p := range s.Points {
				if p[0] != 20 && p[0] != 40 && p[0] != 60 {
					t.Errorf("%s: %s has a point at rate %v", title, s.Name, p[0])
				}
			}
		}
		if len(perCPU) != 2 {
			t.Errorf("%s: lines %v, want one per CPU count (2)", title, perCPU)
		}
		for name, n := range perCPU {
			if n != 3 {
				t.Errorf("%s: %s has %d points, want 3 rates", title, name, n)
			}
		}
	}
	// Success at the lowest rate is near 100% for both CPU counts: the
	// service and its database really answered.
	for _, s := range found["Success against rate"].Series {
		if len(s.Points) > 0 && s.Points[0][1] < 90 {
			t.Errorf("%s: success %.1f%% at %v req/s", s.Name, s.Points[0][1], s.Points[0][0])
		}
	}

	js, err := run(t, ctx, dir, "report", "--db", db, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []struct {
		Services []struct {
			Name       string `json:"name"`
			MemoryPeak int64  `json:"memory_peak"`
		} `json:"services"`
	}
	if err := json.Unmarshal([]byte(js), &trials); err != nil {
		var wrapped struct {
			Trials json.RawMessage `json:"trials"`
		}
		if json.Unmarshal([]byte(js), &wrapped) != nil || json.Unmarshal(wrapped.Trials, &trials) != nil {
			t.Fatalf("report json: %v\n%.300s", err, js)
		}
	}
	if len(trials) != 6 {
		t.Errorf("%d trials stored, want 6", len(trials))
	}
	for i, tr := range trials {
		if len(tr.Services) != 1 || tr.Services[0].Name != "db" || tr.Services[0].MemoryPeak <= 0 {
			t.Errorf("trial %d: database footprint %+v", i, tr.Services)
		}
	}
}
