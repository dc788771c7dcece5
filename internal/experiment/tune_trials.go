package experiment

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/profile"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TuneSession runs tune's points as trials of a Session, which prepares,
// stores, reuses identical stored trials (so tune resumes), reports
// progress and handles signals. It only turns a point into a spec:
//   - the profile trial runs the JDK's defaults with NMT and the probe that
//     forces a full GC at the end, and its profile is profile.From's;
//   - a training run gets the candidate's training options, and a longer
//     stop grace (TrainingGrace): the archive is written as the JVM exits;
//   - search trials get the launcher's options at the point, then the
//     candidate's, on the command line: what the JAVA_TOOL_OPTIONS form
//     gives the JVM;
//   - the soak runs the recommended entrypoint: `jvmfit exec --profile`
//     around the java command (viaExec), when ProfileDir is set and the
//     descriptor's command starts java; else as a search trial.
type TuneSession struct {
	Session       *Session
	Planner       TunePlanner
	TrainingGrace time.Duration // 0 = the Session's
	// Goal is the launcher's goal the soak's jvmfit exec is given.
	Goal string
	// ProfileDir is where the soak's profile file is written for exec.
	ProfileDir string
}

func (t *TuneSession) Run(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	return t.trial(ctx, p)
}

func (t *TuneSession) Soak(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	return t.trial(ctx, p)
}

// TuneKindRefused is the kind of a point the launcher refuses to plan: a
// KO known without a trial.
const TuneKindRefused = "refused"

// spec is the trial a point means.
func (t *TuneSession) spec(p TunePoint) (trial.Spec, error) {
	s := t.Session.Base
	s.MemoryBytes, s.CPUs, s.JVM, s.Repeat = p.MemoryBytes, p.CPUs, "default", p.Repeat
	switch p.Purpose {
	case TuneProfile:
		s.NMT = true
	case TuneTraining:
		s.JVM = tuneShellJoin(p.Options)
	case TuneSoak:
		ok, err := t.viaExec(&s, p)
		if err != nil || ok {
			s.Duration, s.Soak = p.Soak, true
			return s, err
		}
		fallthrough
	default:
		pl, err := t.Planner(p)
		if err != nil {
			return s, err
		}
		s.JVM = tuneShellJoin(tuneJoin(pl.Options, p.Options))
		s.NMT = p.Measure && p.Purpose == TuneSearch
	}
	if p.Purpose == TuneSoak {
		s.Duration, s.Soak = p.Soak, true
	}
	return s, nil
}

func (t *TuneSession) trial(ctx context.Context, p TunePoint) (TuneOutcome, error) {
	spec, err := t.spec(p)
	var refused *plan.RefusedError
	switch {
	case errors.As(err, &refused):
		return TuneOutcome{Verdict: trial.KO, Kind: TuneKindRefused}, nil
	case err != nil:
		return TuneOutcome{}, err
	}
	defer t.deps(p)()
	r, _, err := t.Session.Trial(ctx, spec, "tune "+p.String())
	if errors.As(err, &refused) {
		return TuneOutcome{Verdict: trial.KO, Kind: TuneKindRefused}, nil
	}
	if err != nil {
		return TuneOutcome{}, err
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

// deps sets the Session's collaborators for the point's trial and returns
// what puts them back: the profiling probe for the profile trial, a longer
// stop grace for a training run.
func (t *TuneSession) deps(p TunePoint) func() {
	saved := t.Session.Deps
	switch {
	case p.Purpose == TuneProfile, p.Measure && p.Purpose == TuneSearch:
		t.Session.Deps.Prober = trial.ProfileProber()
	case p.Purpose == TuneTraining && t.TrainingGrace > 0:
		t.Session.Deps.StopGrace = t.TrainingGrace
	}
	return func() { t.Session.Deps = saved }
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

func tuneOutcomeOf(p TunePoint, r *trial.Result) TuneOutcome {
	o := TuneOutcome{Verdict: r.Verdict, Kind: r.Kind, StartSeconds: r.StartSeconds, PeakBytes: r.MemoryPeakBytes, TrialID: r.ID}
	if r.Load != nil {
		o.P99 = r.Load.Latencies.P99
	}
	if wall := r.EndedAt.Sub(r.StartedAt); wall > 0 {
		o.Throttling = r.Summary.Throttled.Seconds() / wall.Seconds()
	}
	if (p.Purpose == TuneProfile || p.Measure && p.Purpose == TuneSearch) && r.Verdict == trial.OK {
		prof, notes, err := profile.From(r)
		if err != nil {
			notes = append(notes, "no profile from the profile trial: "+err.Error())
			prof = nil
		}
		o.Profile, o.Notes = prof, notes
	}
	return o
}
