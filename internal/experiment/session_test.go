package experiment

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// experiments are the strategies as the commands run them, each saying
// how many trials its answer holds.
var experiments = []struct {
	name, kind string
	run        func(ctx context.Context, s *Session) (int, error)
}{
	{"minmem and its soak", store.KindMinMem, func(ctx context.Context, s *Session) (int, error) {
		p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default", "jvmfit"}, Search: DefaultSearch}
		res, ans, err := p.Conclude(ctx, s, time.Minute)
		n := 0
		for _, m := range res {
			n += len(m.Outcome.Trials)
		}
		if ans.Rec != nil {
			n += len(ans.Rec.Soak)
		}
		return n, err
	}},
	{"sweep", store.KindSweep, func(ctx context.Context, s *Session) (int, error) {
		rates, _ := ParseNumbers("rate", "100..500/100")
		cells, _, err := Sweep{Cells: Axes{CPUs: []float64{1, 2}, Rates: rates, Memory: []int64{256 * mi}}.Cells(s.Base)}.Conclude(ctx, s)
		return len(cells), err
	}},
	{"compare", store.KindCompare, func(ctx context.Context, s *Session) (int, error) {
		cells, _, err := Compare([]string{"A", "B"}, []int64{128 * mi, 256 * mi}, []float64{1}, s.Base).Conclude(ctx, s)
		return len(cells), err
	}},
}

// ended reads whether the session's experiment is marked complete with a
// stored answer.
func ended(t *testing.T, st *store.Store, s *Session) bool {
	t.Helper()
	e, err := st.Experiment(strconv.FormatInt(s.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	return !e.Ended.IsZero() && e.Summary != nil
}

// Every experiment runs its trials through Session.Trial: the one trial
// function is called once per trial the answer holds, each is stored, and
// the same experiment again takes all of them from the store.
func TestEveryExperimentRunsTrialsThroughTheSession(t *testing.T) {
	for _, e := range experiments {
		t.Run(e.name, func(t *testing.T) {
			st := openStore(t)
			f := &fake{}
			s := newSession(t, st, f, e.kind)
			n, err := e.run(context.Background(), s)
			ran, reused := s.Counts()
			if err != nil || n < 2 || len(f.ran()) != n || ran != n || reused != 0 || len(stored(t, st, s)) != n || !ended(t, st, s) {
				t.Fatalf("%d trials in the answer, %d calls, %d run, %d reused, %d stored (err %v): want all equal",
					n, len(f.ran()), ran, reused, len(stored(t, st, s)), err)
			}
			again := &fake{}
			s2 := newSession(t, st, again, e.kind)
			n2, err := e.run(context.Background(), s2)
			ran, reused = s2.Counts()
			if err != nil || n2 != n || len(again.ran()) != 0 || ran != 0 || reused != n || len(stored(t, st, s2)) != n {
				t.Fatalf("rerun: %d trials, %d calls, %d reused, %d stored (err %v): want %d, all from the store",
					n2, len(again.ran()), reused, len(stored(t, st, s2)), err, n)
			}
			s3 := newSession(t, st, &fake{}, e.kind)
			s3.Fresh = true
			if _, err := e.run(context.Background(), s3); err != nil || s3.count.ran != n {
				t.Fatalf("--fresh ran %d of %d (err %v)", s3.count.ran, n, err)
			}
		})
	}
}

// An experiment interrupted after k stored trials resumes: the same
// command takes those k from the store, runs the interrupted one and the
// rest, and ends with the answer an uninterrupted run gives.
func TestEveryExperimentResumes(t *testing.T) {
	for _, e := range experiments {
		for _, k := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/after %d", e.name, k), func(t *testing.T) {
				whole := &fake{}
				want, err := e.run(context.Background(), newSession(t, openStore(t), whole, e.kind))
				if err != nil || want <= k {
					t.Fatalf("uninterrupted: %d trials, %v", want, err)
				}
				st := openStore(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				// SIGINT while trial k+1 runs; the runner then returns a
				// result or, like the real one, the context's error.
				first := &fake{errOnCancel: k == 3, hook: func(n int) {
					if n == k+1 {
						cancel()
					}
				}}
				s1 := newSession(t, st, first, e.kind)
				if _, err := e.run(ctx, s1); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "not stored; run the same command again") {
					t.Fatalf("interrupted run: err %v, want context.Canceled saying how to resume", err)
				}
				if got := len(stored(t, st, s1)); got != k || ended(t, st, s1) {
					t.Fatalf("%d trials stored after the interruption (ended %v), want the %d completed and the experiment open", got, ended(t, st, s1), k)
				}
				second := &fake{}
				s2 := newSession(t, st, second, e.kind)
				n, err := e.run(context.Background(), s2)
				if err != nil || n != want || len(stored(t, st, s2)) != want || !ended(t, st, s2) {
					t.Fatalf("resumed: %d trials, %d stored (err %v), want %d", n, len(stored(t, st, s2)), err, want)
				}
				if !slices.Equal(second.ran(), whole.ran()[k:]) {
					t.Fatalf("resume ran %d trials, want exactly the %d after the first %d (the interrupted one first)",
						len(second.ran()), want-k, k)
				}
				if _, reused := s2.Counts(); reused != k {
					t.Fatalf("%d trials taken from the store, want %d", reused, k)
				}
			})
		}
	}
}

// One rule for errors in every experiment: a trial in which jvmfit itself
// failed is stored (its log tells why), stops the experiment, and is run
// again, not reused, by the same command.
func TestOneErrorRule(t *testing.T) {
	for _, e := range experiments {
		t.Run(e.name, func(t *testing.T) {
			st := openStore(t)
			broken := &fake{kind: trial.KindError}
			s := newSession(t, st, broken, e.kind)
			_, err := e.run(context.Background(), s)
			var te *TrialError
			got := stored(t, st, s)
			if !errors.As(err, &te) || len(broken.ran()) != 1 || len(got) != 1 || got[0].Kind != trial.KindError || te.Result.ID != got[0].ID {
				t.Fatalf("err %v, %d run, %d stored: want a TrialError after the first trial, which is stored", err, len(broken.ran()), len(got))
			}
			fixed := &fake{}
			s2 := newSession(t, st, fixed, e.kind)
			if _, err := e.run(context.Background(), s2); err != nil || len(fixed.ran()) == 0 || fixed.ran()[0] != broken.ran()[0] {
				t.Fatalf("rerun (err %v) did not run the error trial again first", err)
			}
		})
	}
}

// A runner's own error stops the experiment and stores nothing.
func TestRunnerErrorStoresNothing(t *testing.T) {
	st := openStore(t)
	s := newSession(t, st, &fake{}, store.KindSweep)
	s.Run = func(context.Context, trial.Spec) (*trial.Result, error) { return nil, errors.New("cgroup gone") }
	cells, err := Sweep{Cells: Axes{CPUs: []float64{1, 2}}.Cells(s.Base)}.Run(context.Background(), s)
	if err == nil || len(cells) != 0 || len(stored(t, st, s)) != 0 {
		t.Fatalf("err %v, %d cells, %d stored", err, len(cells), len(stored(t, st, s)))
	}
}

// Bad input is refused before the first trial runs or anything is stored.
func TestBadInputBeforeAnyTrial(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	s := newSession(t, st, f, store.KindCompare)
	_, err := Compare([]string{"A", "nope"}, []int64{128 * mi}, []float64{1}, s.Base).Run(context.Background(), s)
	var pe *PrepareError
	if !errors.As(err, &pe) || len(f.ran()) != 0 || len(stored(t, st, s)) != 0 {
		t.Fatalf("err %v, %d run: want a PrepareError before any trial", err, len(f.ran()))
	}
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default", "set:nope"}, Search: DefaultSearch}
	if _, err := p.Run(context.Background(), s); !errors.As(err, &pe) || len(f.ran()) != 0 {
		t.Fatalf("minmem: err %v, %d run", err, len(f.ran()))
	}
}
