// Package backendtest is the conformance suite every trial.Backend passes
// (internal/backend/local, container, kube): what trial.Backend's comment
// promises, checked through the backend's own Run. Each backend's test
// gives a Harness: its Backend, a test app of its kind, and the few things
// only it can observe (what it has running, the limits as the kernel, the
// engine or the API server holds them, where a spec's setting took effect).
package backendtest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// Kind is the test trial a case asks the harness for.
type Kind int

const (
	// OK is a small service that passes its SLO.
	OK Kind = iota
	// OOM is one that touches memory past its limit until it is killed.
	OOM
	// Long is one that runs until cancelled (its load lasts a minute).
	Long
)

// Harness is one backend under the suite.
type Harness struct {
	Backend trial.Backend
	// Trial is a prepared trial of the backend's test app, of kind k, at
	// memory limit mem and cpus CPUs.
	Trial func(t *testing.T, k Kind, mem int64, cpus float64) (trial.Spec, *trial.App)
	// Live lists what the backend has running for this test: trial
	// cgroups, processes, containers, Jobs and pods.
	Live func(t *testing.T) []string
	// Limits are the memory and CPU limits of the trial running now, as
	// the kernel, the engine or the API server holds them; ok is false
	// while none runs.
	Limits func(t *testing.T) (mem int64, cpus float64, ok bool)
	// FullGC says whether the trial's Spec.FullGCAtEnd took effect where
	// its app ran (a full GC at the end, or the setting in the pod's task).
	FullGC func(t *testing.T, r *trial.Result) bool
}

const (
	mi  = int64(1) << 20
	mem = 256 * mi
)

// Run runs the suite's cases against h.
func Run(t *testing.T, h Harness) {
	t.Run("ResultWithLimitsAndSetting", func(t *testing.T) { okCase(t, h) })
	t.Run("OOMKilledIsAVerdict", func(t *testing.T) { oomCase(t, h) })
	t.Run("CancelLeavesNothing", func(t *testing.T) { cancelCase(t, h) })
}

// okCase: the result comes back for the spec asked (its key), OK, with the
// limits applied as asked while it ran, the spec's FullGCAtEnd honoured
// where the app ran, and nothing left.
func okCase(t *testing.T, h Harness) {
	spec, a := h.Trial(t, OK, mem, 1)
	spec.FullGCAtEnd, spec.StopGrace = true, 2*time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	w := watchLimits(t, h)
	r, err := h.Backend.Run(ctx, spec, a, trial.Options{Progress: logWriter{t}, LogDir: t.TempDir()})
	gotMem, gotCPUs, seen := w.stop()
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != trial.OK || r.Key != spec.Key() || !r.Spec.FullGCAtEnd {
		t.Fatalf("got %s %s %q for key %s (spec %s, full GC %v): want OK for the spec asked\n%s",
			r.Verdict, r.Kind, r.Failed, r.Key, spec.Key(), r.Spec.FullGCAtEnd, r.OutputTail)
	}
	switch {
	case !seen:
		t.Error("the trial's limits were never seen while it ran")
	case gotMem != spec.MemoryBytes || gotCPUs != spec.CPUs:
		t.Errorf("limits %d bytes, %g CPUs while it ran: want %d, %g", gotMem, gotCPUs, spec.MemoryBytes, spec.CPUs)
	}
	if !h.FullGC(t, r) {
		t.Error("Spec.FullGCAtEnd did not take effect where the app ran")
	}
	nothingLeft(t, h)
}

// oomCase: an app killed at its limit is a KO oom-killed Result, not an
// error, and nothing is left.
func oomCase(t *testing.T, h Harness) {
	spec, a := h.Trial(t, OOM, 128*mi, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	r, err := h.Backend.Run(ctx, spec, a, trial.Options{Progress: logWriter{t}, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != trial.KO || r.Kind != trial.KindOOMKilled {
		t.Fatalf("got %s %s %q: want KO %s\n%s", r.Verdict, r.Kind, r.Failed, trial.KindOOMKilled, r.OutputTail)
	}
	nothingLeft(t, h)
}

// cancelCase: a trial cancelled while its app runs returns the
// cancellation and no Result, and leaves nothing running.
func cancelCase(t *testing.T, h Harness) {
	spec, a := h.Trial(t, Long, mem, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	deadline := time.AfterFunc(3*time.Minute, cancel)
	defer deadline.Stop()
	go func() {
		for ctx.Err() == nil && len(h.Live(t)) == 0 {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(time.Second) // well into the trial
		cancel()
	}()
	r, err := h.Backend.Run(ctx, spec, a, trial.Options{Progress: logWriter{t}, LogDir: t.TempDir()})
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("got %v, %v: want no result and the cancellation", r, err)
	}
	nothingLeft(t, h)
}

// nothingLeft fails t if the backend still runs anything a moment after
// Run returned (a Job's pods may take that moment to be deleted).
func nothingLeft(t *testing.T, h Harness) {
	t.Helper()
	var left []string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if left = h.Live(t); len(left) == 0 {
			return
		}
	}
	t.Errorf("left after the trial: %s", strings.Join(left, ", "))
}

// limitsWatch polls the harness's Limits while a trial runs and keeps the
// last limits seen.
type limitsWatch struct {
	poll  func() (int64, float64, bool)
	stopc chan struct{}
	wg    sync.WaitGroup
	mem   int64
	cpus  float64
	seen  bool
}

func watchLimits(t *testing.T, h Harness) *limitsWatch {
	w := &limitsWatch{poll: func() (int64, float64, bool) { return h.Limits(t) }, stopc: make(chan struct{})}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			w.once()
			select {
			case <-w.stopc:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *limitsWatch) once() {
	if m, c, ok := w.poll(); ok {
		w.mem, w.cpus, w.seen = m, c, true
	}
}

// stop ends the polling after a last look (a harness that records what it
// saw may have recorded it after the last poll).
func (w *limitsWatch) stop() (int64, float64, bool) {
	close(w.stopc)
	w.wg.Wait()
	w.once()
	return w.mem, w.cpus, w.seen
}

type logWriter struct{ t *testing.T }

func (l logWriter) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
