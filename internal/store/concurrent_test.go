package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Readers see each trial whole or not at all while another handle writes.
func TestConcurrentWriterReader(t *testing.T) {
	w, path := openTemp(t)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	exp, _ := w.NewExperiment("c", KindSweep, nil)
	const n = 30
	var wg sync.WaitGroup
	wg.Add(1)
	errs := make(chan error, 4)
	go func() {
		defer wg.Done()
		for i := 0; i < n; i++ {
			if _, err := w.SaveTrial(exp, fixtureResult(i, 200)); err != nil {
				errs <- err
				return
			}
		}
	}()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	last, reads := 0, 0
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		rs, err := r.Trials(Filter{ExperimentID: exp})
		if err != nil {
			t.Fatalf("read during write: %v", err)
		}
		reads++
		if len(rs) < last {
			t.Fatalf("trial count went back from %d to %d", last, len(rs))
		}
		last = len(rs)
		for _, x := range rs {
			if len(x.Series) != 200 || len(x.Histograms) != 2 || x.Spec.Repeat != int(x.ID-rs[0].ID) {
				t.Fatalf("trial %d read half-written: %d samples, %d histograms", x.ID, len(x.Series), len(x.Histograms))
			}
		}
	}
	select {
	case err := <-errs:
		t.Fatalf("writer: %v", err)
	default:
	}
	if last != n {
		t.Errorf("final read saw %d trials, want %d", last, n)
	}
	t.Logf("%d reads during %d writes", reads, n)
}

// Two writers (as two jvmfit processes would) queue on the busy timeout
// instead of failing.
func TestConcurrentWriters(t *testing.T) {
	a, path := openTemp(t)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	exp, _ := a.NewExperiment("w", KindSweep, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, s := range []*Store{a, b} {
		wg.Add(1)
		go func(s *Store) {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				if _, err := s.SaveTrial(exp, fixtureResult(i, 50)); err != nil {
					errs <- err
					return
				}
			}
		}(s)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rs, _ := a.Trials(Filter{ExperimentID: exp, Light: true})
	if len(rs) != 30 {
		t.Errorf("got %d trials, want 30", len(rs))
	}
}

const crashChildEnv = "JVMFIT_STORE_CRASH_CHILD"

// TestMain lets the test binary act as a jvmfit that saves trials until it
// is SIGKILLed.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
		return
	}
	os.Exit(m.Run())
}

func crashChild(path string) {
	s, err := Open(path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	exp, err := s.NewExperiment("crash", KindSweep, nil)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		// Large series make the kill likely to land inside a transaction.
		id, err := s.SaveTrial(exp, fixtureResult(i, 2000))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Printf("saved %d %d\n", i, id)
	}
}

func TestCrashKeepsCompletedTrials(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	saved := map[int64]int{} // trial id -> fixture index
	sc := bufio.NewScanner(out)
	deadline := time.Now().Add(60 * time.Second)
	for len(saved) < 8 && sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || f[0] != "saved" {
			t.Fatalf("child: %s", sc.Text())
		}
		i, _ := strconv.Atoi(f[1])
		id, _ := strconv.ParseInt(f[2], 10, 64)
		saved[id] = i
		if time.Now().After(deadline) {
			t.Fatal("child too slow")
		}
	}
	// Kill it while it is writing the next trial.
	time.Sleep(7 * time.Millisecond)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	// Lines written before the kill also count; read them before Wait,
	// which closes the pipe.
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "saved" {
			i, _ := strconv.Atoi(f[1])
			id, _ := strconv.ParseInt(f[2], 10, 64)
			saved[id] = i
		}
	}
	cmd.Wait()

	s, err := Open(path)
	if err != nil {
		t.Fatalf("reopen after crash: %v", err)
	}
	defer s.Close()
	var check string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	rs, err := s.Trials(Filter{Experiment: "crash"})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]bool{}
	for _, r := range rs {
		byID[r.ID] = true
		if len(r.Series) != 2000 || len(r.Histograms) != 2 {
			t.Errorf("trial %d is partial: %d samples, %d histograms", r.ID, len(r.Series), len(r.Histograms))
		}
	}
	for id, i := range saved {
		if !byID[id] {
			t.Errorf("trial %d (fixture %d) was reported saved but is gone", id, i)
		}
	}
	// At most the one in flight may have committed without being reported.
	if len(rs) < len(saved) || len(rs) > len(saved)+1 {
		t.Errorf("%d trials in the db, %d reported saved", len(rs), len(saved))
	}
	t.Logf("child saved %d trials before SIGKILL; %d readable", len(saved), len(rs))
}
