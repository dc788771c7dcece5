package tune

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/plan"
)

// archiveApp is a simulated app whose training run writes the archive its
// options name, and whose planner, as the launcher does
// (plan.userArchiveBytes), counts a mapped archive only when its file
// exists: the floor of a candidate that maps one is cost higher then.
type archiveApp struct {
	*simApp
	cost int64
}

func (a *archiveApp) Run(ctx context.Context, p Point) (Outcome, error) {
	o, err := a.simApp.Run(ctx, p)
	if err == nil && p.Purpose == PurposeTraining {
		for _, opt := range p.Options {
			if f, ok := strings.CutPrefix(opt, "-XX:ArchiveClassesAtExit="); ok {
				if err := os.WriteFile(f, []byte("archive"), 0o644); err != nil {
					return Outcome{}, err
				}
			}
		}
	}
	return o, err
}

func (a *archiveApp) planner(p Point) (*plan.Plan, error) {
	var cost int64
	for _, opt := range p.Options {
		if f, ok := strings.CutPrefix(opt, "-XX:SharedArchiveFile="); ok {
			if _, err := os.Stat(f); err == nil {
				cost = a.cost
			}
		}
	}
	p.MemoryBytes -= cost
	pl, err := a.simApp.planner(p)
	var ref *plan.RefusedError
	if errors.As(err, &ref) {
		ref.LimitBytes += cost
		ref.MinBytes += cost
	}
	return pl, err
}

// reusing is a Session as tune sees it over any Trials: a stored point is
// not run again.
type reusing struct {
	t      Trials
	stored map[string]Outcome
}

func (r *reusing) Run(ctx context.Context, p Point) (Outcome, error) {
	return r.through(ctx, p, r.t.Run)
}

func (r *reusing) Soak(ctx context.Context, p Point) (Outcome, error) {
	return r.through(ctx, p, r.t.Soak)
}

func (r *reusing) through(ctx context.Context, p Point, f func(context.Context, Point) (Outcome, error)) (Outcome, error) {
	if o, ok := r.stored[pointKey(p)]; ok {
		return o, nil
	}
	o, err := f(ctx, p)
	if err == nil {
		r.stored[pointKey(p)] = o
	}
	return o, err
}

// A resumed tune finds the archive its interrupted run's training wrote;
// it must ask for the same points a fresh run does, and no more (catalog's
// resume ran two serial-c1-appcds trials the fresh run never did, because
// the candidate's floor and start were planned with the archive there).
func TestTuneResumeIgnoresAnArchiveLeftOnDisk(t *testing.T) {
	mk := func() *archiveApp {
		a := footprintApp()
		// appcds the smallest, so that the search spends trials on it.
		c := a.cands["serial-c1-appcds"]
		c.min = 90 * tmib
		a.cands["serial-c1-appcds"] = c
		return &archiveApp{simApp: a, cost: 24 * tmib}
	}
	cfg := func(a *archiveApp, dir string) Config {
		c := simConfig(a.simApp, plan.Footprint, 40)
		c.ArchiveDir, c.Planner = dir, a.planner
		return c
	}
	fresh := mk()
	want, err := Run(context.Background(), cfg(fresh, t.TempDir()), fresh)
	if err != nil {
		t.Fatal(err)
	}
	trained := -1
	for i, p := range fresh.runs {
		if p.Purpose == PurposeTraining {
			trained = i
		}
	}
	if trained < 0 {
		t.Fatalf("the fresh run trained no archive:\n%s", searchLog(want))
	}
	for _, k := range []int{trained + 1, trained + 3, len(fresh.runs) - 1, len(fresh.runs)} {
		dir := t.TempDir()
		a := mk()
		a.stopAfter = k
		st := &reusing{t: a, stored: map[string]Outcome{}}
		if _, err := Run(context.Background(), cfg(a, dir), st); k < len(fresh.runs) && !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted at %d: %v", k, err)
		}
		a.stopAfter = 0
		got, err := Run(context.Background(), cfg(a, dir), st)
		if err != nil {
			t.Fatal(err)
		}
		runCounts(t, a.runs)
		if len(a.runs) != len(fresh.runs) {
			t.Errorf("resumed after %d trials with the archive on disk: %d trials in all, %d in a fresh run", k, len(a.runs), len(fresh.runs))
		}
		if got.Candidate != want.Candidate || got.MemoryBytes != want.MemoryBytes || got.Used() != want.Used() {
			t.Errorf("resumed after %d: %s at %d MiB (%d trials); fresh %s at %d MiB (%d)", k,
				got.Candidate, got.MemoryBytes/tmib, got.Used(), want.Candidate, want.MemoryBytes/tmib, want.Used())
		}
	}
}
