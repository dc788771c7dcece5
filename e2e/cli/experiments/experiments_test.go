package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

func TestExperimentsBadInputExit2(t *testing.T) {
	clitest.NeedJava(t)
	desc := clitest.RunFixture(t, "serve", "10s")
	sets := clitest.WriteDesc(t, "small: [-XX:+UseSerialGC]\n")
	dir := t.TempDir()
	db := filepath.Join(dir, "bad.db")
	j := []string{"--app", desc, "--java", clitest.Java17, "--db", db}
	with := func(args ...string) []string { return append(append([]string{args[0]}, j...), args[1:]...) }
	cases := map[string][]string{
		"minmem no app":        {"minmem", "--db", db},
		"minmem missing app":   {"minmem", "--app", "/nonexistent/app.yaml", "--db", db},
		"minmem min > max":     with("minmem", "--min", "512Mi", "--max", "256Mi"),
		"minmem bad step":      with("minmem", "--step", "8Q"),
		"minmem bad rate":      with("minmem", "--rate", "fast"),
		"minmem negative rate": with("minmem", "--rate", "-5"),
		"minmem unknown set":   with("minmem", "--jvm", "set:nope", "--option-sets", sets),
		"minmem no sets file":  with("minmem", "--jvm", "set:small"),
		"minmem bad goal":      with("minmem", "--jvm", "jvmfit:fast"),
		"minmem bad cpus":      with("minmem", "--cpus", "1,,2"),
		"minmem negative soak": with("minmem", "--soak", "-1s"),
		"sweep missing app":    {"sweep", "--app", "/nonexistent/app.yaml", "--db", db},
		"sweep bad rate":       with("sweep", "--rate", "100..500"),
		"sweep rate range":     with("sweep", "--rate", "500..100/100"),
		"sweep unknown set":    with("sweep", "--jvm", "default,set:nope", "--option-sets", sets),
		"sweep bad memory":     with("sweep", "--memory", "lots"),
		"sweep too many cpus":  with("sweep", "--cpus", "1,4096"),
		"sweep missing java":   {"sweep", "--app", desc, "--db", db, "--java", clitest.Java17 + ",/nonexistent/java"},
		"sweep soak < 0":       with("sweep", "--soak", "-1s"),
		"compare no app":       {"compare", "--db", db},
		"compare missing sets": with("compare", "--sets", "/nonexistent/sets.yaml"),
		"compare bad rate":     with("compare", "--sets", sets, "--rate", "1..2"),
		"compare bad memory":   with("compare", "--sets", sets, "--memory", "0"),
		"compare soak < 0":     with("compare", "--sets", sets, "--soak", "-1s"),
	}
	for name, args := range cases {
		_, stderr, code := clitest.Run(t, []string{"TMPDIR=" + dir}, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "jvmfit: ") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line", name, code, stderr)
		}
		clitest.NoExperiments(t, db, name)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "jvmfit-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestMinMemRealRun(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "20s")
	db := filepath.Join(t.TempDir(), "m.db")
	out := clitest.ExperimentRun(t, "minmem", "--app", desc, "--java", clitest.Java17, "--db", db, "--experiment", "mm",
		"--cpus", "1", "--jvm", "default,jvmfit", "--min", "16Mi", "--max", "128Mi", "--step", "16Mi", "--repeats", "0",
		"--rate", "20", "--duration", "1s", "--soak", "3s", "--json")
	var j struct {
		Modes []struct {
			JVM        string `json:"jvm"`
			MinOK      int64  `json:"min_ok_bytes"`
			TrialCount int    `json:"trial_count"`
			Trials     []struct {
				Limit   int64  `json:"limit_bytes"`
				Verdict string `json:"verdict"`
				Kind    string `json:"kind"`
			} `json:"trials"`
		} `json:"modes"`
		Recommendation *struct {
			MemoryBytes int64 `json:"memory_bytes"`
			Tested      bool  `json:"tested"`
			Soak        []struct {
				TrialID  int64         `json:"trial_id"`
				Memory   int64         `json:"memory_bytes"`
				Duration time.Duration `json:"duration_ns"`
				Verdict  string        `json:"verdict"`
			} `json:"soak"`
		} `json:"recommendation"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(j.Modes) != 2 || j.Recommendation == nil {
		t.Fatalf("want two searches and a recommendation:\n%s", out)
	}
	st := clitest.OpenStore(t, db)
	e, err := st.Experiment("mm")
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := st.Trials(store.Filter{ExperimentID: e.ID, Light: true})
	total, ko := 0, 0
	for _, m := range j.Modes {
		t.Logf("%s: min OK %dMi in %d trials", m.JVM, m.MinOK>>20, m.TrialCount)
		if m.MinOK <= 0 || m.MinOK > 128<<20 {
			t.Errorf("%s: min OK %d", m.JVM, m.MinOK)
		}
		total += len(m.Trials)
	}
	// The soak proves the recommended limit with a longer trial there.
	rec := j.Recommendation
	if n := len(rec.Soak); n == 0 || rec.Soak[n-1].Memory != rec.MemoryBytes || rec.Soak[n-1].Duration != 3*time.Second ||
		rec.Tested != (rec.Soak[n-1].Verdict == "OK") || rec.Soak[0].TrialID == 0 {
		t.Errorf("recommendation %+v: want soaks ending at its limit, 3s each, tested iff the last passed", rec)
	}
	total += len(rec.Soak)
	if len(stored) != total || e.Ended.IsZero() || e.Summary == nil {
		t.Errorf("%d stored of %d, ended %v, summary %s", len(stored), total, e.Ended, e.Summary)
	}
	if s := string(e.Summary); !strings.Contains(s, "by a soak") && !strings.Contains(s, "Not proven") {
		t.Errorf("stored recommendation says nothing of the soak: %s", s)
	}
	// KO trials keep their app log next to the database; OK trials' go.
	logs, _ := filepath.Glob(filepath.Join(db+".logs", "*", "*.log"))
	for _, r := range stored {
		if r.Verdict == trial.KO && r.Kind != "refused" {
			ko++
			if r.LogFile == "" || !strings.HasPrefix(r.LogFile, db+".logs/") {
				t.Errorf("KO trial at %dMi: log %q, want under %s.logs/", r.Spec.MemoryBytes>>20, r.LogFile, db)
			}
		}
		if r.Verdict == trial.OK && r.LogFile != "" {
			t.Errorf("OK trial keeps log %s", r.LogFile)
		}
	}
	if len(logs) != ko {
		t.Errorf("%d logs kept for %d KO trials: %v", len(logs), ko, logs)
	}
	// The report shows what minmem concluded.
	md, _, code := clitest.Run(t, nil, "report", "--db", db, "-e", "mm")
	if code != 0 || !strings.Contains(md, "Answer: ") || !strings.Contains(md, "## Recommendation") || !strings.Contains(md, "## The search") {
		t.Errorf("report exit %d lacks the stored recommendation:\n%s", code, md)
	}
}

func TestSweepRealRunAndResume(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "20s")
	db := filepath.Join(t.TempDir(), "s.db")
	args := []string{"sweep", "--app", desc, "--java", clitest.Java17, "--db", db, "--cpus", "1", "--memory", "128Mi",
		"--rate", "10,20", "--duration", "1s"}
	out := clitest.ExperimentRun(t, append(args, "--experiment", "sw1")...)
	for _, want := range []string{"### Rate sweep", "### Where it breaks (knee)", "1 CPU: ", "the load generator and the services share them", "## Recommendation"} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	// The same sweep again runs nothing: both cells come from the store.
	t0 := time.Now()
	clitest.ExperimentRun(t, append(args, "--experiment", "sw2")...)
	if d := time.Since(t0); d > 20*time.Second {
		t.Errorf("resumed sweep took %s: cells were run again?", d)
	}
	st := clitest.OpenStore(t, db)
	for _, name := range []string{"sw1", "sw2"} {
		e, err := st.Experiment(name)
		if err != nil || e.Trials != 2 {
			t.Errorf("%s: %d trials, %v", name, e.Trials, err)
		}
	}
	// One report over both.
	md, _, code := clitest.Run(t, nil, "report", "--db", db, "-e", "sw")
	if code != 0 || !strings.Contains(md, "### Overview") || !strings.Contains(md, "## sw1 (") || !strings.Contains(md, "## sw2 (") {
		t.Errorf("report -e sw exit %d:\n%s", code, md)
	}
}

func TestCompareRealRun(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "20s")
	db := filepath.Join(t.TempDir(), "c.db")
	sets := clitest.WriteDesc(t, "serial: [-XX:+UseSerialGC, -Xmx32m]\nparallel: [-XX:+UseParallelGC, -Xmx32m]\n")
	out := clitest.ExperimentRun(t, "compare", "--app", desc, "--java", clitest.Java17, "--db", db, "--sets", sets,
		"--memory", "128Mi", "--rate", "20", "--duration", "1s")
	for _, want := range []string{"### Option sets compared", "| Configuration | set:serial | set:parallel |"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q:\n%s", want, out)
		}
	}
	st := clitest.OpenStore(t, db)
	if e, err := st.Experiment("latest"); err != nil || e.Trials != 2 || e.Kind != store.KindCompare {
		t.Errorf("latest experiment %+v, %v", e, err)
	}
}

// SIGINT mid-minmem keeps the trials done, stores not the one cut short,
// leaves the experiment open and says how to resume; the same command then
// takes the stored trials from the database and runs only the rest.
func TestMinMemInterruptAndResume(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "20s")
	db := filepath.Join(t.TempDir(), "r.db")
	args := []string{"minmem", "--app", desc, "--java", clitest.Java17, "--db", db, "--cpus", "1", "--jvm", "default",
		"--min", "16Mi", "--max", "128Mi", "--step", "16Mi", "--repeats", "1", "--rate", "20", "--duration", "1s", "--soak", "0"}
	cmd := clitest.Cmd(t, []string{"TMPDIR=" + t.TempDir()}, append(args, "--experiment", "cut")...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	storedTrials := func(name string) []*trial.Result {
		st, err := store.Open(db)
		if err != nil {
			return nil
		}
		defer st.Close()
		rs, _ := st.Trials(store.Filter{Experiment: name, Light: true})
		return rs
	}
	for deadline := time.Now().Add(90 * time.Second); len(storedTrials("cut")) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no trial stored in 90 s:\n%s", errb.String())
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(errb.String(), "run the same command again to resume") {
		t.Fatalf("after SIGINT: %v\n%s", err, errb.String())
	}
	done := storedTrials("cut")
	st := clitest.OpenStore(t, db)
	if e, _ := st.Experiment("cut"); !e.Ended.IsZero() || e.Summary != nil {
		t.Errorf("the interrupted experiment is marked ended or has an answer: %+v", e)
	}
	out := clitest.ExperimentRun(t, append(args, "--experiment", "resumed")...)
	want := fmt.Sprintf("run, %d from the store)", len(done))
	if !strings.Contains(out, want) || !strings.Contains(out, "## Recommendation") {
		t.Fatalf("resumed minmem after %d stored trials lacks %q:\n%s", len(done), want, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, want) {
			t.Logf("interrupted after %d stored trials; resumed: %s", len(done), l)
		}
	}
}
