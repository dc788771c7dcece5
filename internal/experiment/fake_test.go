package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// fake is a trial function that needs no JVM: it remembers every spec it
// ran (by key, in order) and passes a trial when the limit is at least
// okAt[mode] (default 144Mi) and the rate at most 300 req/s per CPU.
type fake struct {
	mu    sync.Mutex
	calls []string
	okAt  map[string]int64
	kind  trial.Kind  // when set, every trial is a KO of this kind
	hook  func(n int) // called with the call's number, before it returns
	// errOnCancel makes a cancelled trial return the context's error, as
	// the real runner does, instead of a result.
	errOnCancel bool
}

func (f *fake) run(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, spec.Key())
	n := len(f.calls)
	f.mu.Unlock()
	if f.hook != nil {
		f.hook(n)
	}
	if f.errOnCancel && ctx.Err() != nil {
		return nil, fmt.Errorf("stopping the app: %w", ctx.Err())
	}
	okAt := int64(144 * mi)
	if v, ok := f.okAt[spec.JVM]; ok {
		okAt = v
	}
	r := &trial.Result{Spec: spec, Verdict: trial.OK, StartSeconds: 1, MemoryPeakBytes: spec.MemoryBytes - 8*mi,
		Load: &record.Report{Rate: spec.Rate, Throughput: min(spec.Rate, 300*spec.CPUs), Success: 1}}
	switch {
	case f.kind != "":
		r.Verdict, r.Kind, r.Failed = trial.KO, f.kind, []string{"sandbox: no cgroup"}
	case spec.MemoryBytes < okAt:
		r.Verdict, r.Kind = trial.KO, trial.KindOOMKilled
	case spec.Rate > 300*spec.CPUs:
		r.Verdict, r.Kind, r.Failed = trial.KO, trial.KindSLO, []string{"throughput"}
	}
	return r, nil
}

func (f *fake) ran() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string{}, f.calls...)
}

// fakePrepare stands in for trial.Prepare: a fixed JDK, jvmfit modes
// planned as half the limit for the heap and refused below 90Mi (as the
// planner does, naming the smallest limit it accepts), set:NAME modes from
// a fixed table.
func fakePrepare(s trial.Spec) (trial.Spec, error) {
	s.Java, s.JDKVersion = "/jdk/bin/java", 17
	switch {
	case s.JVM == "jvmfit" || strings.HasPrefix(s.JVM, "jvmfit:"):
		if s.MemoryBytes < 90*mi {
			return s, fmt.Errorf("--jvm jvmfit: %w", &plan.RefusedError{LimitBytes: s.MemoryBytes, MinBytes: 90 * mi,
				Why: "after 79Mi of non-heap and 6Mi headroom the heap would be 0, below the 8Mi minimum"})
		}
		s.JVMOptions = []string{fmt.Sprintf("-Xmx%dm", s.MemoryBytes/mi/2)}
	case strings.HasPrefix(s.JVM, "set:"):
		opts, ok := map[string][]string{"A": {"-XX:+UseSerialGC"}, "B": {"-XX:+UseParallelGC"}}[strings.TrimPrefix(s.JVM, "set:")]
		if !ok {
			return s, fmt.Errorf("--jvm %s: no such option set", s.JVM)
		}
		s.JVMOptions = opts
	}
	return s, nil
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// newSession begins an experiment on st that runs f.
func newSession(t *testing.T, st *store.Store, f *fake, kind string) *Session {
	t.Helper()
	s := &Session{Base: trial.Spec{App: "fake.yaml", AppName: "fake", JVM: "default", SLO: "success>=0.99", Rate: 100},
		Store: st, Prepare: fakePrepare, Run: f.run}
	if err := s.Begin(kind, map[string]string{"t": t.Name()}); err != nil {
		t.Fatal(err)
	}
	return s
}

// stored lists the keys of the trials stored under the session's experiment.
func stored(t *testing.T, st *store.Store, s *Session) []*trial.Result {
	t.Helper()
	rs, err := st.Trials(store.Filter{ExperimentID: s.ID, Light: true})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
