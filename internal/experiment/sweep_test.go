package experiment

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
)

const childEnv = "JVMFIT_SWEEP_CHILD"

// slowSweep is the sweep the SIGKILL test runs: 2 CPUs × 5 rates.
func slowSweep(t *testing.T, st *store.Store, f *fake) (*Session, Sweep) {
	s := newSession(t, st, f, store.KindSweep)
	rates, _ := ParseNumbers("rate", "100..500/100")
	return s, Sweep{Cells: Axes{CPUs: []float64{1, 2}, Rates: rates, Memory: []int64{256 * mi}}.Cells(s.Base)}
}

// TestSweepChild is the child process of TestSweepResumeAfterSIGKILL: a
// slow sweep that the parent kills.
func TestSweepChild(t *testing.T) {
	dbPath := os.Getenv(childEnv)
	if dbPath == "" {
		t.Skip("helper process for TestSweepResumeAfterSIGKILL")
	}
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	s, sw := slowSweep(t, st, &fake{hook: func(int) { time.Sleep(150 * time.Millisecond) }})
	_, _ = sw.Run(context.Background(), s)
	t.Fatal("the parent should have killed this sweep before it ended")
}

// A sweep killed outright (no chance to clean up) loses at most the cell
// in progress: every trial in the store is taken from it, the rest run.
func TestSweepResumeAfterSIGKILL(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "sweep.db")
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dbPath)
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
	done := func() map[string]bool {
		rs, _ := st.Trials(store.Filter{Light: true})
		keys := map[string]bool{}
		for _, r := range rs {
			keys[r.Key] = true
		}
		return keys
	}
	for deadline := time.Now().Add(60 * time.Second); len(done()) < 4; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child sweep did not store 4 cells in 60 s")
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	killed = true
	completed := done()
	if len(completed) >= 10 {
		t.Fatalf("the child finished all %d cells before the kill; slow it down", len(completed))
	}
	f := &fake{}
	s, sw := slowSweep(t, st, f)
	all, err := sw.Run(context.Background(), s)
	if err != nil || len(all) != 10 {
		t.Fatalf("resume: %d cells, err %v", len(all), err)
	}
	for _, k := range f.ran() {
		if completed[k] {
			t.Fatalf("cell %s was stored before the kill and was run again", k)
		}
	}
	if n := len(f.ran()); n != 10-len(completed) {
		t.Fatalf("resume ran %d cells after %d stored, want %d", n, len(completed), 10-len(completed))
	}
	t.Logf("killed after %d stored cells; resume ran %d", len(completed), len(f.ran()))
}
