package experiment

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// A minmem at --parallel 4 says each round and its limits as it starts,
// and each trial's line how many still run beside it.
func TestProgressShowsRoundsAndTrialsInFlight(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	s := newSession(t, st, f, "minmem")
	var out bytes.Buffer
	s.Progress, s.Parallel = &syncWriter{w: &out}, 4
	s.Run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		time.Sleep(time.Duration(spec.MemoryBytes/mi) * 100 * time.Microsecond) // lower limits end first
		return f.run(ctx, spec)
	}
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"}, Search: Search{Min: 64 * mi, Max: 1024 * mi, Step: 8 * mi}}
	res, err := p.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	rounds := regexp.MustCompile(`(?m)^round (\d+): (\d+) trials side by side: memory=\S+(; memory=\S+)*$`).FindAllStringSubmatch(text, -1)
	if len(rounds) == 0 || rounds[0][1] != "1" || rounds[0][2] != "4" {
		t.Fatalf("no round lines, or the first is not round 1 of 4:\n%s", text)
	}
	if res[0].Outcome.Rounds < len(rounds) {
		t.Errorf("%d round lines for %d rounds", len(rounds), res[0].Outcome.Rounds)
	}
	for _, n := range []string{", 3 in flight", ", 2 in flight", ", 1 in flight"} {
		if !strings.Contains(text, n) {
			t.Errorf("no line with %q:\n%s", n, text)
		}
	}
}

// Ctrl-C mid-round (the context cancelled, as main does on SIGINT) stops
// every trial in flight; those that ended are stored, those cut short
// are not, and the same minmem again takes the stored ones from the
// store, runs each of the others once, and finds the answer.
func TestInterruptedRoundResumes(t *testing.T) {
	st := openStore(t)
	f := &fake{}
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var started []int64
	cut := 0
	run := func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		mu.Lock()
		started = append(started, spec.MemoryBytes)
		first := len(started) <= 4
		mu.Unlock()
		if first && spec.MemoryBytes > 500*mi {
			// The round's two upper limits run on until Ctrl-C.
			<-ctx.Done()
			mu.Lock()
			cut++
			mu.Unlock()
			return nil, ctx.Err()
		}
		r, err := f.run(ctx, spec)
		if first {
			go func() {
				time.Sleep(50 * time.Millisecond) // both lower ones stored
				cancel()
			}()
		}
		return r, err
	}
	p := MinMemPlan{CPUs: []float64{1}, JVMs: []string{"default"}, Search: Search{Min: 64 * mi, Max: 1024 * mi, Step: 8 * mi}}
	s := newSession(t, st, f, "minmem")
	s.Run, s.Parallel = run, 4
	_, err := p.Run(ctx, s)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}
	kept := stored(t, st, s)
	if len(kept) != 2 || cut != 2 {
		t.Fatalf("%d trials stored, %d cut short; want the 2 that ended, and the 2 in flight stopped", len(kept), cut)
	}
	again := newSession(t, st, f, "minmem")
	again.Parallel = 4
	var reran []int64
	again.Run = func(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
		for _, k := range kept {
			if k.Spec.MemoryBytes == spec.MemoryBytes {
				t.Errorf("%d MiB was stored, and ran again", spec.MemoryBytes/mi)
			}
		}
		mu.Lock()
		reran = append(reran, spec.MemoryBytes)
		mu.Unlock()
		return f.run(ctx, spec)
	}
	res, err := p.Run(context.Background(), again)
	if err != nil || res[0].Outcome.MinOK != 144*mi {
		t.Fatalf("rerun: %v, %v", res, err)
	}
	if ran, reused := again.Counts(); reused != 2 || ran != len(reran) {
		t.Errorf("rerun: ran %d, reused %d; want the 2 stored reused", ran, reused)
	}
}

// syncWriter lets trials side by side write one buffer.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (w *syncWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}
