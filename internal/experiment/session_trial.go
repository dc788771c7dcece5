package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/jvmfit/jvmfit/internal/backend"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// counter is what a Session has done, for progress and for tests.
type counter struct {
	ran, reused, done int
	total             int // 0 = not known (a search)
	rounds, running   int // rounds side by side so far, trials running now
	spent             time.Duration
}

// Expect tells progress how many trials the experiment will have (a
// sweep's cells); a search does not know and leaves it 0.
func (s *Session) Expect(total int) { s.count.total = total }

func (s *Session) prepare(spec trial.Spec) (trial.Spec, error) {
	if s.Prepare != nil {
		return s.Prepare(spec)
	}
	return trial.Prepare(spec, s.App, s.OptionSets)
}

func (s *Session) run(ctx context.Context, spec trial.Spec) (*trial.Result, error) {
	if s.places != nil && spec.CPUSet == "" {
		p := s.places.take()
		defer s.places.give(p)
		spec.Placement = p.cpuset()
	}
	if s.Run != nil {
		return s.Run(ctx, spec)
	}
	if err := s.claimOwner(s.Store); err != nil {
		return nil, err
	}
	b := s.Backend
	if b == nil {
		b = backend.Local(s.App)
	}
	r, err := b.Run(ctx, spec, s.App, trial.Options{Progress: s.Progress, LogDir: s.LogDir})
	if err == nil && r != nil && r.Verdict == trial.OK && r.LogFile != "" && !s.KeepLogs {
		// An OK trial's log says nothing a reader needs; a KO's says why.
		os.Remove(r.LogFile)
		r.LogFile = ""
	}
	return r, err
}

// Check prepares a trial without running it: the error is the user's to
// fix, found before the first trial. A limit the planner refuses comes out
// as a *RefusedLimit, naming the mode as the user wrote it.
func (s *Session) Check(spec trial.Spec) (trial.Spec, error) {
	prepared, err := s.prepare(spec)
	var refused *plan.RefusedError
	if errors.As(err, &refused) {
		return prepared, &RefusedLimit{JVM: spec.JVM, LimitBytes: spec.MemoryBytes, Planner: refused}
	}
	return prepared, err
}

// Trial runs one trial of the experiment, named by what for progress, and
// returns it with whether it came from the store. The one rule for errors:
//   - a limit the planner refuses is no trial: nothing runs or is stored,
//     and the error is a *RefusedLimit for the strategy to read;
//   - any other preparing error, or an error from the runner, stops the
//     experiment, and nothing is stored;
//   - an interrupted trial (ctx cancelled) is not stored: errors.Is
//     context.Canceled, and the same command resumes;
//   - a trial that reached its end is stored before anything else runs;
//     if jvmfit itself failed in it (trial.KindError, no verdict on the
//     app) it stops the experiment with a *TrialError, and is never reused,
//     so the rerun runs it again.
func (s *Session) Trial(ctx context.Context, spec trial.Spec, what string) (*trial.Result, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, interrupted(what, err)
	}
	if s.Prepare == nil {
		// An image's JDK is read outside the lock, and a signal stops it.
		if err := trial.PrepareImage(ctx, spec, s.App); err != nil {
			if ctx.Err() != nil {
				return nil, false, interrupted(what, ctx.Err())
			}
			return nil, false, fmt.Errorf("%s: %w", what, err)
		}
	}
	s.mu.Lock()
	prepared, err := s.Check(spec)
	s.mu.Unlock()
	var ref *RefusedLimit
	switch {
	case errors.As(err, &ref):
		s.lockedLine("%s: %s (no trial)", what, ref.Short())
		return nil, false, ref
	case err != nil:
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	t0 := time.Now()
	s.mu.Lock()
	s.count.running++
	s.mu.Unlock()
	r, reused, err := s.reuseOrRun(ctx, prepared)
	s.mu.Lock()
	s.count.running--
	s.mu.Unlock()
	if ctx.Err() != nil {
		// Whatever the runner made of the cancellation, the trial was cut
		// short: no verdict, not stored.
		return nil, false, interrupted(what, ctx.Err())
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	// The trial's role in this experiment, which a reused trial takes on.
	r.Spec.Purpose, r.Spec.Candidate = prepared.Purpose, prepared.Candidate
	s.mu.Lock()
	err = s.keep(r, prepared.Key())
	if err == nil {
		s.progressLine(what, r, reused, time.Since(t0))
	}
	s.mu.Unlock()
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	if !r.OnApp() {
		// Not the app's verdict: stop rather than search on it (a port
		// taken twice in a row is stored, never reused, and rerun).
		return r, reused, &TrialError{What: what, Result: r}
	}
	return r, reused, nil
}

// reuseOrRun takes the stored trial with the spec's key unless Fresh; the
// store never offers a KindError trial, so those run again.
func (s *Session) reuseOrRun(ctx context.Context, spec trial.Spec) (*trial.Result, bool, error) {
	if !s.Fresh && s.Store != nil {
		s.mu.Lock()
		prev, found, err := s.Store.FindTrial(spec.Key())
		s.mu.Unlock()
		if err != nil {
			return nil, false, fmt.Errorf("looking it up in the store: %w", err)
		}
		if found && prev.Verdict != "" && prev.OnApp() {
			return prev, true, nil
		}
	}
	r, err := s.run(ctx, spec)
	if err == nil && r != nil && r.Kind == trial.KindPortInUse && ctx.Err() == nil {
		// Another process took the app's port: no verdict on the app.
		// Once more, with a port chosen afresh.
		s.lockedLine("  %s; again with a fresh port", r.Failed[0])
		r, err = s.run(ctx, spec)
	}
	if err == nil && r == nil {
		err = errors.New("the trial returned no result")
	}
	return r, false, err
}

// keep saves a trial under this experiment (a reused one again, so its
// report is complete), keyed by the prepared spec's key: resume looks
// trials up by that key, whatever the runner recorded.
func (s *Session) keep(r *trial.Result, key string) error {
	r.ID, r.Key = 0, key
	if s.Store == nil {
		return nil
	}
	id, err := s.Store.SaveTrial(s.ID, r)
	if err != nil {
		return fmt.Errorf("saving the trial: %w", err)
	}
	r.ID = id
	return nil
}

// lockedLine is line for a trial that may run beside others.
func (s *Session) lockedLine(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line(format, a...)
}

func interrupted(what string, err error) error {
	return fmt.Errorf("interrupted at %s (that trial is not stored; run the same command again to resume): %w", what, err)
}

// TrialError is a trial in which jvmfit itself failed: stored, with its
// log, but no verdict on the app.
type TrialError struct {
	What   string
	Result *trial.Result
}

func (e *TrialError) Error() string {
	return fmt.Sprintf("%s: jvmfit failed in the trial (#%d): %s; fix it and run the same command again: trials already done are reused",
		e.What, e.Result.ID, firstOr(e.Result.Failed, "no reason given"))
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}
