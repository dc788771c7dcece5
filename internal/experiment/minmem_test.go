package experiment

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

const mi = size.MiB

// sim is a simulated trial function: scripted verdicts per limit (consumed in
// order), then a threshold rule. It records every limit it was asked for.
type sim struct {
	threshold int64
	script    map[int64][]trial.Verdict
	calls     []int64
}

func (s *sim) run(_ context.Context, mem int64) (*trial.Result, error) {
	s.calls = append(s.calls, mem)
	v := trial.KO
	if mem >= s.threshold {
		v = trial.OK
	}
	if q := s.script[mem]; len(q) > 0 {
		v, s.script[mem] = q[0], q[1:]
	}
	return &trial.Result{Verdict: v, Spec: trial.Spec{MemoryBytes: mem}}, nil
}

func mibs(v []int64) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = x / mi
	}
	return out
}

func sameSeq(t *testing.T, got, want []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("trials at %v MiB, want %v", mibs(got), want)
	}
	for i := range got {
		if got[i]/mi != want[i] {
			t.Fatalf("trials at %v MiB, want %v", mibs(got), want)
		}
	}
}

func TestMinMemMonotone(t *testing.T) {
	s := &sim{threshold: 203 * mi}
	out, err := MinMem(context.Background(), DefaultSearch, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 208*mi || out.MaxKO != 200*mi || out.Precision != 8*mi || out.Flaky {
		t.Fatalf("got min OK %s, max KO %s, precision %s, flaky %v; want 208Mi, 200Mi, 8Mi, false",
			size.Format(out.MinOK), size.Format(out.MaxKO), size.Format(out.Precision), out.Flaky)
	}
	// Doubling 64→256, bisection down to 8 MiB, then each boundary once more.
	sameSeq(t, s.calls, []int64{64, 128, 256, 192, 224, 208, 200, 208, 200})
	if len(out.Trials) != 9 {
		t.Fatalf("outcome lists %d trials, the function ran %d", len(out.Trials), len(s.calls))
	}
}

func TestMinMemMonotoneEveryThreshold(t *testing.T) {
	for th := int64(65); th <= 1024; th += 7 {
		s := &sim{threshold: th * mi}
		out, err := MinMem(context.Background(), DefaultSearch, s.run)
		if err != nil {
			t.Fatal(err)
		}
		want := (th + 7) / 8 * 8 * mi
		if out.MinOK != want || out.MaxKO != want-8*mi {
			t.Fatalf("threshold %d MiB: got %s/%s, want %s", th, size.Format(out.MinOK), size.Format(out.MaxKO), size.Format(want))
		}
		// At most 5 doublings, 7 halvings of a 512 MiB bracket, 2 confirmations.
		if n := len(s.calls); n > 14 {
			t.Fatalf("threshold %d MiB: %d trials, want ≤ 14: %v", th, n, mibs(s.calls))
		}
	}
}

func TestMinMemAllKO(t *testing.T) {
	s := &sim{threshold: 4 * size.GiB}
	out, err := MinMem(context.Background(), DefaultSearch, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 0 || out.MaxKO != 1024*mi || out.Note == "" {
		t.Fatalf("got min OK %d, max KO %s, note %q", out.MinOK, size.Format(out.MaxKO), out.Note)
	}
	sameSeq(t, s.calls, []int64{64, 128, 256, 512, 1024, 1024})
}

func TestMinMemAllOK(t *testing.T) {
	s := &sim{threshold: 0}
	out, err := MinMem(context.Background(), DefaultSearch, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 64*mi || out.MaxKO != 0 || out.Precision != 0 || out.Note == "" {
		t.Fatalf("got %+v", out)
	}
	sameSeq(t, s.calls, []int64{64, 64})
}

// A lucky OK below the true boundary must not be the answer: the
// confirmation run fails, the tie counts as KO and the search moves up.
func TestMinMemNonMonotone(t *testing.T) {
	s := &sim{threshold: 208 * mi, script: map[int64][]trial.Verdict{
		192 * mi: {trial.OK}, // lucky once
		200 * mi: {trial.OK}, // lucky once
	}}
	out, err := MinMem(context.Background(), DefaultSearch, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 208*mi || out.MaxKO != 200*mi || !out.Flaky || out.NoiseBand != 16*mi {
		t.Fatalf("got min OK %s, max KO %s, flaky %v, noise band %s; want 208Mi, 200Mi, true, 16Mi", size.Format(out.MinOK), size.Format(out.MaxKO), out.Flaky, size.Format(out.NoiseBand))
	}
	// 200 ends 1-1 and gets a third run to break the tie.
	sameSeq(t, s.calls, []int64{64, 128, 256, 192, 160, 176, 184, 192, 224, 208, 200, 200, 208, 200})
}

// A spurious KO above the first OK (e.g. a latency spike on a busy machine)
// that does not recur is outvoted when Repeats gives a majority.
func TestMinMemSpuriousKO(t *testing.T) {
	s := &sim{threshold: 150 * mi, script: map[int64][]trial.Verdict{
		152 * mi: {trial.KO}, // a one-off failure at the true boundary
	}}
	cfg := DefaultSearch
	cfg.Repeats = 2
	out, err := MinMem(context.Background(), cfg, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 152*mi || out.MaxKO != 144*mi || !out.Flaky {
		t.Fatalf("got min OK %s, max KO %s, flaky %v; want 152Mi, 144Mi, true", size.Format(out.MinOK), size.Format(out.MaxKO), out.Flaky)
	}
	// 152 first fails, then wins 2 of 3; 144 and 152 each end with 3 runs.
	runs := map[int64]int{}
	for _, c := range s.calls {
		runs[c/mi]++
	}
	if runs[152] != 3 || runs[144] != 3 {
		t.Fatalf("runs per limit %v, want 3 at 144 and 152", runs)
	}
}

// A latency spike that fails a roomy limit during the doubling phase (the
// demo saw JDK defaults fail 256Mi once on p99, then pass) must not pin the
// answer above it: the tie is broken, and the search goes on below.
func TestMinMemTieAtBoundaryReopensSearch(t *testing.T) {
	s := &sim{threshold: 152 * mi, script: map[int64][]trial.Verdict{256 * mi: {trial.KO}}}
	out, err := MinMem(context.Background(), DefaultSearch, s.run)
	if err != nil {
		t.Fatal(err)
	}
	if out.MinOK != 152*mi || out.MaxKO != 144*mi || !out.Flaky {
		t.Fatalf("got min OK %s, max KO %s, flaky %v; want 152Mi, 144Mi, true", size.Format(out.MinOK), size.Format(out.MaxKO), out.Flaky)
	}
	sameSeq(t, s.calls, []int64{64, 128, 256, 512, 384, 320, 288, 272, 264, 264, 256, 256, 192, 160, 144, 152, 152, 144})
}

// Random noise near the boundary: the answer always lies in the noisy band
// or at its top, never below the hard floor, and the search stays short.
func TestMinMemNoisy(t *testing.T) {
	const floor, sure = 176, 232 // always KO below floor, always OK from sure
	cfg := DefaultSearch
	cfg.Repeats = 2
	worst := 0
	for seed := int64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		calls := 0
		fn := func(_ context.Context, mem int64) (*trial.Result, error) {
			calls++
			m := mem / mi
			p := 0.0 // probability of OK, rising linearly across the band
			switch {
			case m >= sure:
				p = 1
			case m >= floor:
				p = float64(m-floor) / float64(sure-floor)
			}
			v := trial.KO
			if rng.Float64() < p {
				v = trial.OK
			}
			return &trial.Result{Verdict: v}, nil
		}
		out, err := MinMem(context.Background(), cfg, fn)
		if err != nil {
			t.Fatal(err)
		}
		if out.MinOK <= floor*mi || out.MinOK > sure*mi || out.Precision != 8*mi {
			t.Fatalf("seed %d: min OK %s (max KO %s), want in (%d, %d] MiB at 8 MiB precision", seed, size.Format(out.MinOK), size.Format(out.MaxKO), floor, sure)
		}
		worst = max(worst, calls)
	}
	if worst > 40 {
		t.Fatalf("a noisy search took %d trials, want ≤ 40", worst)
	}
	t.Logf("worst case over 300 noisy searches: %d trials", worst)
}

func TestMinMemStopsOnErrorAndCancel(t *testing.T) {
	boom := errors.New("sandbox failed")
	n := 0
	fn := func(_ context.Context, mem int64) (*trial.Result, error) {
		n++
		if n == 3 {
			return nil, boom
		}
		return &trial.Result{Verdict: trial.KO}, nil
	}
	out, err := MinMem(context.Background(), DefaultSearch, fn)
	if !errors.Is(err, boom) || out == nil || len(out.Trials) != 2 {
		t.Fatalf("err %v, outcome %+v: want the error and the 2 trials before it", err, out)
	}

	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	fn = func(_ context.Context, mem int64) (*trial.Result, error) {
		n++
		if n == 2 {
			cancel()
		}
		return &trial.Result{Verdict: trial.KO}, nil
	}
	out, err = MinMem(ctx, DefaultSearch, fn)
	if !errors.Is(err, context.Canceled) || len(out.Trials) != 2 || n != 2 {
		t.Fatalf("err %v after %d calls: want context.Canceled after 2", err, n)
	}
}

func TestMinMemTrialCap(t *testing.T) {
	cfg := DefaultSearch
	cfg.MaxTrials = 4
	s := &sim{threshold: 203 * mi}
	out, err := MinMem(context.Background(), cfg, s.run)
	if err != nil || len(s.calls) != 4 || out.Note == "" || out.MinOK != 256*mi {
		t.Fatalf("err %v, calls %v, outcome %+v", err, mibs(s.calls), out)
	}
}

func TestSearchValidate(t *testing.T) {
	bad := []Search{
		{Min: 64 * mi, Max: 32 * mi, Step: 8 * mi},
		{Min: 64 * mi, Max: 128 * mi, Step: 0},
		{Min: 0, Max: 128 * mi, Step: 8 * mi},
		{Min: 65 * mi, Max: 70 * mi, Step: 8 * mi},
		{Min: 64 * mi, Max: 128 * mi, Step: 8 * mi, Repeats: -1},
	}
	for _, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
	if err := DefaultSearch.Validate(); err != nil {
		t.Fatal(err)
	}
}
