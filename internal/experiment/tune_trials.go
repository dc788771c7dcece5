package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TuneRunner runs tune's points as real trials. It is a temporary stand-in
// for the experiment Session, built like MinMemPlan from trial.Prepare and
// trial.Run bound by the CLI: it stores each trial as it ends and reuses a
// stored trial with the same key, which is what makes tune resumable.
//
// Two things it does not do as the Session will: a soak gives the JVM the
// recommended options on its command line, which is what the
// JAVA_TOOL_OPTIONS form gives it, not through `jvmfit exec --profile`;
// and the profile comes from the trial's own summary and NMT (see
// tuneProfileOf) until the measured profile of `run --profile-out` exists.
type TuneRunner struct {
	Base    trial.Spec // app, java, SLO, warm-up, duration, rate
	Prepare PrepareFunc
	Trial   RunFunc
	// Training runs the training points; nil = Trial. The archive is
	// written as the JVM exits, so it needs a longer stop grace.
	Training     RunFunc
	Store        Store // nil = keep nothing, reuse nothing
	ExperimentID int64
	Planner      TunePlanner
	Log          io.Writer // one line per trial; nil = silent
}

func (t *TuneRunner) Run(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	return t.trial(ctx, p)
}

func (t *TuneRunner) Soak(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	return t.trial(ctx, p)
}

// spec is the trial a point means.
func (t *TuneRunner) spec(p TunePoint) (trial.Spec, error) {
	s := t.Base
	s.MemoryBytes, s.CPUs, s.JVM = p.MemoryBytes, p.CPUs, "default"
	switch p.Purpose {
	case TuneProfile:
		s.NMT = true // the profile reads the native regions from NMT
	case TuneTraining:
		s.JVM = tuneShellJoin(p.Options)
	default:
		pl, err := t.Planner(p)
		if err != nil {
			return s, err
		}
		s.JVM = tuneShellJoin(tuneJoin(pl.Options, p.Options))
	}
	if p.Purpose == TuneSoak {
		s.Duration, s.Soak = p.Soak, true
	}
	return t.Prepare.apply(s)
}

func (t *TuneRunner) trial(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	spec, err := t.spec(p)
	var refused *plan.RefusedError
	switch {
	case errors.As(err, &refused):
		return TuneOutcome{Verdict: trial.KO, Kind: KindRefused}, nil
	case err != nil:
		return TuneOutcome{}, fmt.Errorf("preparing the trial: %w", err)
	}
	t0 := time.Now()
	r, reused, err := t.find(spec)
	if err == nil && r == nil {
		run := t.Trial
		if p.Purpose == TuneTraining && t.Training != nil {
			run = t.Training
		}
		r, err = t.runAndKeep(ctx, spec, run)
	}
	if err != nil {
		return TuneOutcome{}, err
	}
	if t.Log != nil {
		how := time.Since(t0).Round(100 * time.Millisecond).String()
		if reused {
			how = fmt.Sprintf("reused trial #%d", r.ID)
		}
		fmt.Fprintf(t.Log, "tune %s: %s (%s)\n", p, resultText(r), how)
	}
	o := tuneOutcomeOf(p, r)
	if p.Purpose == TuneTraining && o.Verdict == trial.OK {
		// A JVM writes no archive when its class path has a non-empty
		// directory, or when it is killed before it exits; the training
		// then passed for nothing.
		if f := tuneArchive(p.Options); f != "" {
			if _, err := os.Stat(f); err != nil {
				o.Verdict, o.Kind = trial.KO, KindNoArchive
			}
		}
	}
	return o, nil
}

// KindNoArchive marks a training run that ended without writing its CDS
// archive or AOT cache.
const KindNoArchive = "no-archive"

// tuneArchive is the file a training run's options write, or "".
func tuneArchive(opts []string) string {
	for _, o := range opts {
		for _, pre := range []string{"-XX:ArchiveClassesAtExit=", "-XX:AOTCacheOutput="} {
			if f, ok := strings.CutPrefix(o, pre); ok {
				return f
			}
		}
	}
	return ""
}

// find is a stored trial with the spec's key, if the store has one that
// gave a verdict.
func (t *TuneRunner) find(spec trial.Spec) (*trial.Result, bool, error) {
	if t.Store == nil {
		return nil, false, nil
	}
	prev, found, err := t.Store.FindTrial(spec.Key())
	if err != nil {
		return nil, false, fmt.Errorf("looking up a stored trial: %w", err)
	}
	if found && prev.Verdict != "" && prev.Kind != trial.KindError {
		return prev, true, nil
	}
	return nil, false, nil
}

func (t *TuneRunner) runAndKeep(ctx context.Context, spec trial.Spec, run RunFunc) (*trial.Result, error) {
	r, err := run(ctx, spec)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // interrupted: not a verdict, not stored
	}
	if r.Verdict == trial.KO && r.Kind == trial.KindError {
		return nil, fmt.Errorf("trial at %s failed: %s", size.Format(spec.MemoryBytes), firstOr(r.Failed, "jvmfit error"))
	}
	if t.Store != nil {
		id, err := t.Store.SaveTrial(t.ExperimentID, r)
		if err != nil {
			return nil, fmt.Errorf("saving the trial at %s: %w", size.Format(spec.MemoryBytes), err)
		}
		r.ID = id
	}
	return r, nil
}

func tuneOutcomeOf(p TunePoint, r *trial.Result) TuneOutcome {
	o := TuneOutcome{Verdict: r.Verdict, Kind: r.Kind, StartSeconds: r.StartSeconds, PeakBytes: r.MemoryPeakBytes, TrialID: r.ID}
	if r.Load != nil {
		o.P99 = r.Load.Latencies.P99
	}
	if wall := r.EndedAt.Sub(r.StartedAt); wall > 0 {
		o.Throttling = r.Summary.Throttled.Seconds() / wall.Seconds()
	}
	if p.Purpose == TuneProfile && r.Verdict == trial.OK {
		o.Profile = tuneProfileOf(r)
	}
	return o
}

// tuneProfileOf is a stop-gap profile read from a trial's summary and its
// last NMT snapshot: the live set, peak threads, metaspace committed (an
// upper bound of used) and the code cache. The measured profile of issue
// 13 (NMT sampled over the run, class space apart, the CDS archive, peak
// uncapped native) replaces it.
func tuneProfileOf(r *trial.Result) *plan.Profile {
	p := &plan.Profile{Version: plan.ProfileVersion, App: r.Spec.AppName, LiveHeapBytes: r.Summary.LivePeak,
		PeakThreads: int64(r.Summary.ThreadsPeak), MetaspaceUsedBytes: r.Summary.MetaspacePeak,
		JDKVersion: r.Spec.JDKVersion, Options: r.Spec.JVMOptions, MemoryLimitBytes: r.Spec.MemoryBytes,
		CPUs: r.Spec.CPUs, Rate: r.Spec.Rate, Trial: r.ID}
	if c, ok := r.NMT["Code"]; ok {
		p.CodeCacheUsedBytes = c.Committed
	}
	return p
}
