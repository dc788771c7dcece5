package experiment

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// recorder is a fake trial runner that remembers which cells it ran.
type recorder struct {
	mu    sync.Mutex
	calls []string // keys, in order
	hook  func(n int)
}

func (f *recorder) run(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, spec.Key())
	n := len(f.calls)
	f.mu.Unlock()
	if f.hook != nil {
		f.hook(n)
	}
	v := trial.OK
	if spec.Rate > 300*spec.CPUs {
		v = trial.KO
	}
	return &trial.Result{Verdict: v, Spec: spec, StartSeconds: 1,
		Load: &record.Report{Rate: spec.Rate, Throughput: min(spec.Rate, 300*spec.CPUs), Success: 1}}, nil
}

func sweepFixture(t *testing.T) (Sweep, *store.Store) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "sweep.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return testSweep(st), st
}

func testSweep(st *store.Store) Sweep {
	rates, _ := ParseNumbers("rate", "100..500/100")
	base := trial.Spec{App: "fake.yaml", AppName: "fake", JVM: "default", MemoryBytes: 256 * size.MiB, SLO: "success>=0.99"}
	ax := Axes{CPUs: []float64{1, 2}, Rates: rates}
	return Sweep{Base: base, Cells: ax.Cells(base), Store: st}
}

func newExp(t *testing.T, st *store.Store) int64 {
	t.Helper()
	id, err := st.NewExperiment("sweep-test", store.KindSweep, map[string]string{"t": t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func storedKeys(t *testing.T, st *store.Store, expID int64) map[string]int {
	t.Helper()
	rs, err := st.Trials(store.Filter{ExperimentID: expID, Light: true})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	for _, r := range rs {
		keys[r.Key]++
	}
	return keys
}

func TestSweepResumeAfterCancel(t *testing.T) {
	sw, st := sweepFixture(t)
	if len(sw.Cells) != 10 {
		t.Fatalf("%d cells, want 2 CPUs × 5 rates", len(sw.Cells))
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := &recorder{hook: func(n int) {
		if n == 5 {
			cancel() // SIGINT arrives while the 5th trial runs
		}
	}}
	sw.Trial, sw.ExperimentID = first.run, newExp(t, st)
	done, err := sw.Run(ctx)
	if !errors.Is(err, context.Canceled) || len(done) != 4 {
		t.Fatalf("interrupted sweep: %d cells done, err %v; want 4 and context.Canceled", len(done), err)
	}
	if got := storedKeys(t, st, sw.ExperimentID); len(got) != 4 {
		t.Fatalf("%d trials stored after the interruption, want the 4 completed", len(got))
	}

	second := &recorder{}
	sw.Trial, sw.ExperimentID = second.run, newExp(t, st)
	all, err := sw.Run(context.Background())
	if err != nil || len(all) != 10 {
		t.Fatalf("resumed sweep: %d cells, err %v", len(all), err)
	}
	// No completed cell is run again; the interrupted one and the rest are.
	if len(second.calls) != 6 || second.calls[0] != first.calls[4] {
		t.Fatalf("resume ran %d cells, want 6 starting with the interrupted one", len(second.calls))
	}
	for _, k := range first.calls[:4] {
		for _, k2 := range second.calls {
			if k == k2 {
				t.Fatalf("completed cell %s was run again", k)
			}
		}
	}
	reused := 0
	for _, cr := range all {
		if cr.Reused {
			reused++
		}
	}
	if reused != 4 {
		t.Fatalf("%d cells taken from the store, want 4", reused)
	}
	if got := storedKeys(t, st, sw.ExperimentID); len(got) != 10 {
		t.Fatalf("the resumed experiment holds %d distinct cells, want all 10", len(got))
	}

	// --fresh runs everything again.
	third := &recorder{}
	sw.Trial, sw.ExperimentID, sw.Fresh = third.run, newExp(t, st), true
	if _, err := sw.Run(context.Background()); err != nil || len(third.calls) != 10 {
		t.Fatalf("--fresh ran %d cells (err %v), want 10", len(third.calls), err)
	}
}

// A KO "error" trial is jvmfit's failure, not the app's: resume reruns it.
func TestSweepRerunsErrorTrials(t *testing.T) {
	sw, st := sweepFixture(t)
	sw.Cells = sw.Cells[:2]
	sw.ExperimentID = newExp(t, st)
	sw.Trial = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		return &trial.Result{Verdict: trial.KO, Kind: trial.KindError, Spec: spec, Failed: []string{"sandbox: no cgroup"}}, nil
	}
	if _, err := sw.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	sw.Trial, sw.ExperimentID = rec.run, newExp(t, st)
	if _, err := sw.Run(context.Background()); err != nil || len(rec.calls) != 2 {
		t.Fatalf("after error trials, resume ran %d cells (err %v), want 2", len(rec.calls), err)
	}
}

const childEnv = "JVMFIT_SWEEP_CHILD"

// TestSweepChild is the child process of TestSweepResumeAfterSIGKILL: it
// runs a slow sweep and logs each cell once stored.
func TestSweepChild(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("helper process for TestSweepResumeAfterSIGKILL")
	}
	dbPath, logPath, _ := strings.Cut(spec, "|")
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	sw := testSweep(st)
	rec := &recorder{hook: func(int) { time.Sleep(150 * time.Millisecond) }}
	sw.Trial, sw.ExperimentID = rec.run, newExp(t, st)
	sw.Progress = &fileProgress{f: logf}
	_, _ = sw.Run(context.Background())
	t.Fatal("the parent should have killed this sweep before it ended")
}

type fileProgress struct{ f *os.File }

func (p *fileProgress) Start(int) {}
func (p *fileProgress) Finish()   {}
func (p *fileProgress) Done(cr CellResult, _ time.Duration) {
	fmt.Fprintln(p.f, cr.Result.Key)
	_ = p.f.Sync()
}

func TestSweepResumeAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	dbPath, logPath := filepath.Join(dir, "sweep.db"), filepath.Join(dir, "done.log")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dbPath+"|"+logPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for len(readLines(logPath)) < 4 {
		if time.Now().After(deadline) {
			t.Fatal("the child sweep did not complete 4 cells in 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	killed = true
	completed := readLines(logPath)
	if len(completed) >= 10 {
		t.Fatalf("the child finished all %d cells before the kill; slow it down", len(completed))
	}

	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, k := range completed {
		if _, found, err := st.FindTrial(k); err != nil || !found {
			t.Fatalf("cell %s completed before the kill but is not in the store (err %v)", k, err)
		}
	}
	rec := &recorder{}
	sw := testSweep(st)
	sw.Trial, sw.ExperimentID = rec.run, newExp(t, st)
	all, err := sw.Run(context.Background())
	if err != nil || len(all) != 10 {
		t.Fatalf("resume: %d cells, err %v", len(all), err)
	}
	ran := map[string]bool{}
	for _, k := range rec.calls {
		ran[k] = true
	}
	for _, k := range completed {
		if ran[k] {
			t.Fatalf("cell %s completed before the kill and was run again", k)
		}
	}
	// The kill may land between a save and its log line, so at most one
	// stored cell is not in the log; it must still not be rerun.
	if n := len(rec.calls); n > 10-len(completed) || n < 10-len(completed)-1 {
		t.Fatalf("resume ran %d cells after %d completed, want %d (or one fewer)", n, len(completed), 10-len(completed))
	}
	t.Logf("killed after %d completed cells; resume ran %d", len(completed), len(rec.calls))
}

func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}
