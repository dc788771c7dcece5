package experiment

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/load"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// memStore is the results database as TuneRunner uses it.
type memStore struct {
	byKey map[string]*trial.Result
	saved int
}

func (m *memStore) FindTrial(key string) (*trial.Result, bool, error) {
	r, ok := m.byKey[key]
	return r, ok, nil
}

func (m *memStore) SaveTrial(_ int64, r *trial.Result) (int64, error) {
	m.saved++
	m.byKey[r.Key] = r
	return int64(m.saved), nil
}

func TestTuneRunnerTrials(t *testing.T) {
	dir := t.TempDir()
	st := &memStore{byKey: map[string]*trial.Result{}}
	var ran []trial.Spec
	runner := &TuneRunner{
		Base: trial.Spec{AppName: "app", Rate: 50, Duration: 10 * time.Second},
		Prepare: func(s trial.Spec) (trial.Spec, error) {
			s.JVMOptions = strings.Fields(s.JVM)
			s.JDKVersion = 17
			return s, nil
		},
		Trial: func(_ context.Context, s trial.Spec) (*trial.Result, error) {
			ran = append(ran, s)
			if f := tuneArchive(s.JVMOptions); f != "" && strings.Contains(f, "good") {
				os.WriteFile(f, []byte("archive"), 0o644)
			}
			r := &trial.Result{Spec: s, Key: s.Key(), Verdict: trial.OK, StartSeconds: 1.5, MemoryPeakBytes: 90 * tmib,
				StartedAt: time.Unix(0, 0), EndedAt: time.Unix(20, 0), Load: &load.Report{}}
			r.Load.Latencies.P99 = 7 * time.Millisecond
			r.Summary = probe.Summary{LivePeak: 20 * tmib, ThreadsPeak: 30, MetaspacePeak: 40 * tmib, Throttled: 2 * time.Second}
			r.NMT = map[string]trial.NMT{"Code": {Committed: 9 * tmib}}
			return r, nil
		},
		Store: st,
		Planner: func(p TunePoint) (*plan.Plan, error) {
			if p.MemoryBytes < 64*tmib {
				return nil, &plan.RefusedError{LimitBytes: p.MemoryBytes, MinBytes: 64 * tmib, Why: "test"}
			}
			return &plan.Plan{Options: []string{"-Xmx32m"}}, nil
		},
	}
	ctx := context.Background()
	prof, err := runner.Run(ctx, TunePoint{Purpose: TuneProfile, MemoryBytes: 512 * tmib, CPUs: 1})
	if err != nil || !ran[0].NMT || ran[0].JVM != "default" || ran[0].MemoryBytes != 512*tmib {
		t.Fatalf("profile trial %+v: %v", ran[0], err)
	}
	if p := prof.Profile; p == nil || p.LiveHeapBytes != 20*tmib || p.CodeCacheUsedBytes != 9*tmib || p.PeakThreads != 30 || p.Trial != 1 {
		t.Errorf("profile %+v", prof.Profile)
	}
	if prof.P99 != 7*time.Millisecond || prof.Throttling != 0.1 || prof.TrialID != 1 {
		t.Errorf("outcome %+v", prof)
	}
	search := TunePoint{Purpose: TuneSearch, MemoryBytes: 96 * tmib, CPUs: 1, Candidate: "c", Options: []string{"-XX:+UseSerialGC"}}
	if _, err := runner.Run(ctx, search); err != nil || !slices.Equal(ran[1].JVMOptions, []string{"-Xmx32m", "-XX:+UseSerialGC"}) {
		t.Errorf("search trial options %v: %v; want the launcher's then the candidate's", ran[1].JVMOptions, err)
	}
	if o, _ := runner.Run(ctx, search); len(ran) != 2 || o.TrialID != 2 {
		t.Errorf("the same point ran again (%d trials) or lost its stored id (%d)", len(ran), o.TrialID)
	}
	soak := search
	soak.Purpose, soak.Soak = TuneSoak, time.Minute
	if _, err := runner.Soak(ctx, soak); err != nil || len(ran) != 3 || !ran[2].Soak || ran[2].Duration != time.Minute {
		t.Errorf("soak spec %+v: %v", ran[len(ran)-1], err)
	}
	low := search
	low.MemoryBytes = 48 * tmib
	if o, err := runner.Run(ctx, low); err != nil || o.Verdict != trial.KO || o.Kind != KindRefused || len(ran) != 3 {
		t.Errorf("refused limit: %+v, %v, %d trials", o, err, len(ran))
	}
	trainings := 0
	runner.Training = func(ctx context.Context, s trial.Spec) (*trial.Result, error) {
		trainings++
		return runner.Trial(ctx, s)
	}
	for _, c := range []struct{ file, want string }{{"good.jsa", trial.OK}, {"lost.jsa", trial.KO}} {
		f := filepath.Join(dir, c.file)
		o, err := runner.Run(ctx, TunePoint{Purpose: TuneTraining, MemoryBytes: 512 * tmib, CPUs: 1, Options: []string{"-XX:ArchiveClassesAtExit=" + f}})
		if err != nil || o.Verdict != c.want {
			t.Errorf("training writing %s: %+v, %v; want %s", c.file, o, err, c.want)
		}
	}
	if trainings != 2 {
		t.Errorf("%d training runs went through Training, want 2", trainings)
	}
}
