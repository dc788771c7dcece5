package tune

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func TestTuneBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	desc := clitest.RunFixture(t, "serve", "10s")
	dir := t.TempDir()
	db := filepath.Join(dir, "bad.db")
	with := func(args ...string) []string {
		return append([]string{"tune", "--app", desc, "--java", clitest.Java17, "--db", db}, args...)
	}
	cases := map[string][]string{
		"no app":         {"tune", "--cpus", "1", "--db", db},
		"missing app":    {"tune", "--app", "/nonexistent/app.yaml", "--cpus", "1", "--db", db},
		"empty cpus":     with("--cpus", ""),
		"zero cpus":      with("--cpus", "0"),
		"bad cpus":       with("--cpus", "one"),
		"too many cpus":  with("--cpus", "4096"),
		"bad goal":       with("--cpus", "1", "--goal", "fast"),
		"small budget":   with("--cpus", "1", "--budget", "2"),
		"proofless":      with("--cpus", "1", "--budget", "4"),
		"negative rerun": with("--cpus", "1", "--rerun", "-1"),
		"rerun no soak":  with("--cpus", "1", "--soak", "0", "--rerun", "3"),
		"bad budget":     with("--cpus", "1", "--budget", "many"),
		"no room here":   with("--cpus", "1", "--parallel", "64"),
		"negative soak":  with("--cpus", "1", "--soak", "-1s"),
		"bad soak":       with("--cpus", "1", "--soak", "long"),
		"negative rate":  with("--cpus", "1", "--rate", "-5"),
		"bad generous":   with("--cpus", "1", "--generous", "1X"),
		"tiny generous":  with("--cpus", "1", "--generous", "16Mi"),
		"unknown flag":   with("--cpus", "1", "--bugdet", "5"),
		"missing java":   {"tune", "--app", desc, "--cpus", "1", "--db", db, "--java", "/nonexistent/java"},
		"stray argument": with("--cpus", "1", "filecache"),
	}
	for name, args := range cases {
		_, stderr, code := clitest.Run(t, []string{"TMPDIR=" + dir}, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line", name, code, stderr)
		}
		clitest.NoExperiments(t, db, name)
	}
}

// TestTuneRealRun tunes the fixture server with real trials on a small
// budget, then tunes it again on the same database: the rerun must reuse
// every stored trial (no JVM started) and give the same answer.
func TestTuneRealRun(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "20s")
	db := filepath.Join(t.TempDir(), "t.db")
	args := []string{"tune", "--app", desc, "--java", clitest.Java17, "--db", db, "--cpus", "1", "--goal", "footprint",
		"--budget", "7", "--rate", "20", "--duration", "1s", "--soak", "2s", "--generous", "256Mi", "--json"}
	first := tuneJSON(t, clitest.ExperimentRun(t, args...))
	if first.Trials < 3 || first.Trials > 7 {
		t.Errorf("%d trials; want 3 to 7 (budget 7)", first.Trials)
	}
	if first.Verdict == "none" || first.MemoryBytes <= 0 || len(first.Options) == 0 || first.Profile == nil {
		t.Fatalf("no answer: %+v", first)
	}
	if first.Soak.Verdict != "OK" && first.Soak.Verdict != "KO" {
		t.Errorf("soak verdict %q", first.Soak.Verdict)
	}
	stdout, stderr, code := clitest.Run(t, nil, args...)
	if code != 0 {
		t.Fatalf("rerun exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "[1/7] tune profile") {
		t.Errorf("progress does not count trials against the budget (\"[1/7] ...\"):\n%s", stderr)
	}
	again := tuneJSON(t, stdout)
	if n := strings.Count(stderr, "(from the store: an identical trial)"); n != first.Trials {
		t.Errorf("rerun reused %d trials of %d\n%s", n, first.Trials, stderr)
	}
	if again.MemoryBytes != first.MemoryBytes || again.Verdict != first.Verdict || strings.Join(again.Options, " ") != strings.Join(first.Options, " ") {
		t.Errorf("rerun answered %d %q %v; first %d %q %v", again.MemoryBytes, again.Verdict, again.Options, first.MemoryBytes, first.Verdict, first.Options)
	}
	// The answer is the experiment's summary: the report shows it, and
	// the Pareto front as a table.
	rep, _, code := clitest.Run(t, nil, "report", "--db", db)
	if code != 0 || !strings.Contains(rep, "Pareto front") || !strings.Contains(rep, "| limit | candidate | p99 |") ||
		!strings.Contains(rep, first.Verdict) {
		t.Errorf("report of a tune (exit %d) lacks its answer or Pareto table:\n%s", code, rep)
	}
}

type tuneOut struct {
	MemoryBytes  int64           `json:"memory_bytes"`
	Options      []string        `json:"options"`
	Profile      json.RawMessage `json:"profile"`
	Verdict      string          `json:"verdict"`
	Trials       int             `json:"trials"`
	BudgetNeeded int             `json:"budget_needed"`
	Soak         struct {
		Verdict string `json:"verdict"`
	} `json:"soak"`
	Front []map[string]any `json:"front"`
}

func tuneJSON(t *testing.T, s string) tuneOut {
	t.Helper()
	var j tuneOut
	if err := json.Unmarshal([]byte(s), &j); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, s)
	}
	return j
}
