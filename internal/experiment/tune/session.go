package tune

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/experiment"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/profile"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// SessionTrials runs tune's points as trials of a Session, which prepares,
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
type SessionTrials struct {
	Session       *experiment.Session
	Planner       Planner
	TrainingGrace time.Duration // 0 = the Session's
	// Goal is the launcher's goal the soak's jvmfit exec is given.
	Goal string
	// ProfileDir is where the soak's profile file is written for exec.
	ProfileDir string
}

func (t *SessionTrials) Run(ctx context.Context, p Point) (Outcome, error) {
	return t.trial(ctx, p)
}

func (t *SessionTrials) Soak(ctx context.Context, p Point) (Outcome, error) {
	return t.trial(ctx, p)
}

// KindRefused is the kind of a point the launcher refuses to plan: a
// KO known without a trial.
const KindRefused = "refused"

// spec is the trial a point means.
func (t *SessionTrials) spec(p Point) (trial.Spec, error) {
	s := t.Session.Base
	s.MemoryBytes, s.CPUs, s.JVM, s.Repeat = p.MemoryBytes, p.CPUs, "default", p.Repeat
	s.Purpose, s.Candidate = p.Purpose, p.Candidate
	if p.Repeat > 0 {
		s.Purpose = trial.PurposeRepeat
	}
	// Options travel as a list, on top of the descriptor's jvm_options.
	// The profile trial, and a search trial measured for the candidate's
	// own profile, force a full GC at the end (the live set); a training
	// run gets a longer stop grace (the archive is written as the JVM
	// exits). Both are Spec fields, so every backend applies them.
	s.FullGCAtEnd = p.Purpose == PurposeProfile || p.Measure && p.Purpose == PurposeSearch
	switch p.Purpose {
	case PurposeProfile:
		s.NMT = true
	case PurposeTraining:
		s.UserOptions = append([]string(nil), p.Options...)
		s.StopGrace = t.TrainingGrace
	case PurposeSoak:
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
		s.UserOptions = join(pl.Options, p.Options)
		s.NMT = p.Measure && p.Purpose == PurposeSearch
		if p.Soak > 0 {
			s.Duration = p.Soak // a search point held as long as the soak (hold.go)
		}
	}
	if p.Purpose == PurposeSoak {
		s.Duration, s.Soak = p.Soak, true
	}
	return s, nil
}

func (t *SessionTrials) trial(ctx context.Context, p Point) (Outcome, error) {
	spec, err := t.spec(p)
	var refused *plan.RefusedError
	switch {
	case errors.As(err, &refused):
		return Outcome{Verdict: trial.KO, Kind: KindRefused}, nil
	case err != nil:
		return Outcome{}, err
	}
	r, _, err := t.Session.Trial(ctx, spec, "tune "+p.String())
	if errors.As(err, &refused) {
		return Outcome{Verdict: trial.KO, Kind: KindRefused}, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	return outcomeOf(p, r), nil
}

// KindNoArchive marks a training run that ended without writing its CDS
// archive or AOT cache.
const KindNoArchive = "no-archive"

// archiveOf is the file a training run's options write, or "".
func archiveOf(opts []string) string {
	for _, o := range opts {
		for _, pre := range []string{"-XX:ArchiveClassesAtExit=", "-XX:AOTCacheOutput="} {
			if f, ok := strings.CutPrefix(o, pre); ok {
				return f
			}
		}
	}
	return ""
}

// outcomeOf is what a trial's result tells the search. A training run
// that passed without writing its archive failed: a JVM writes none when
// its class path has a non-empty directory, or when it is killed before
// it exits; the training then passed for nothing.
func outcomeOf(p Point, r *trial.Result) Outcome {
	o := measuredOutcome(p, r)
	if p.Purpose == PurposeTraining && o.Verdict == trial.OK {
		if f := archiveOf(p.Options); f != "" {
			if _, err := os.Stat(f); err != nil {
				o.Verdict, o.Kind = trial.KO, KindNoArchive
			}
		}
	}
	return o
}

func measuredOutcome(p Point, r *trial.Result) Outcome {
	o := Outcome{Verdict: r.Verdict, Kind: r.Kind, StartSeconds: r.StartSeconds, PeakBytes: r.MemoryPeakBytes, TrialID: r.ID}
	o.Wall = r.EndedAt.Sub(r.StartedAt)
	if r.Load != nil {
		o.P99 = r.Load.Latencies.P99
		o.InFlight = r.Load.Rate * r.Load.Latencies.P99.Seconds()
	}
	if wall := r.EndedAt.Sub(r.StartedAt); wall > 0 {
		o.Throttling = r.Summary.Throttled.Seconds() / wall.Seconds()
	}
	if (p.Purpose == PurposeProfile || p.Measure && p.Purpose == PurposeSearch) && r.Verdict == trial.OK {
		prof, notes, err := profile.From(r)
		if err != nil {
			notes = append(notes, "no profile from the profile trial: "+err.Error())
			prof = nil
		}
		o.Profile, o.Notes = prof, notes
	}
	return o
}

// viaExec makes s, the soak of point p, run as tune recommends it: the
// descriptor's java command started by `jvmfit exec --goal G --profile
// FILE`, which plans inside the trial's cgroup, with the candidate's own
// options on the java command line. It reports false when the soak cannot
// run so (no profile directory, or a command that does not start java).
func (t *SessionTrials) viaExec(s *trial.Spec, p Point) (bool, error) {
	mode := jvmopts.LauncherMode(t.Goal)
	if t.ProfileDir == "" || !trial.CanExec(t.Session.App, mode) {
		return false, nil
	}
	s.JVM, s.Launcher, s.UserOptions = mode, trial.LauncherExec, append([]string(nil), p.Options...)
	if p.Profile != nil {
		f, err := WriteProfile(t.ProfileDir, p.Profile)
		if err != nil {
			return false, err
		}
		s.Profile = f
	}
	return true, nil
}

// TrainingGrace is how long a training run may take to exit: the JVM
// writes its CDS archive or AOT cache then (filecache's 33 MB archive took
// 3.3 s on a loaded 2-core machine, past the trials' usual 3 s grace).
const TrainingGrace = time.Minute

// Tune is a tune ready to run over a Session: the config completed from
// the app's JDK and the given profile, and the trials it asks for.
type Tune struct {
	Config Config
	Trials *SessionTrials
	// Summarize renders the answer as the experiment's stored summary
	// (report.TuneSummary, wired by the command); nil stores an empty one.
	Summarize func(r *Result, profileFile string) judge.Summary
	// given is the profile file the user gave (tune --profile), "" when
	// tune measures its own.
	given string
}

// Open readies a tune of sess's app for cfg, before anything is stored:
// it checks a trial at the generous limit (the JDK's version and update
// decide the launcher's options, as in the soak's exec), loads a given
// profile in place of the profile trial, and keeps the archives and
// profiles in a directory next to the database (Dir). Its errors are the
// user's to fix.
func Open(sess *experiment.Session, cfg Config, db, profileFile string) (*Tune, error) {
	probe := sess.Base
	probe.CPUs, probe.MemoryBytes = cfg.CPUs, cfg.Generous
	probe, err := sess.Check(probe)
	if err != nil {
		return nil, err
	}
	cfg.JDK = probe.JDKVersion
	if profileFile != "" {
		// The search trials do not plan through the Session, so the
		// profile goes to tune's planner instead of the trials' spec.
		if cfg.Profile, err = plan.LoadProfile(profileFile); err != nil {
			return nil, fmt.Errorf("--profile: %w", err)
		}
		// tune's candidates read the figures themselves: a production
		// profile's estimated and unmeasured fields count as absent.
		cfg.Profile = cfg.Profile.Planned()
		sess.Base.Profile = ""
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	cfg.ArchiveDir = Dir(db, sess.App.Name, cfg)
	if cfg.Pools == nil {
		cfg.Pools = AppPools(sess.App)
	}
	j := jdk.JDK{Version: cfg.JDK}
	if ji, err := jdk.Inspect(probe.Java); err == nil {
		j = ji
	}
	cfg.Planner = LauncherPlannerFor(j, cfg.Goal)
	return &Tune{Config: cfg, given: profileFile, Trials: &SessionTrials{Session: sess, Planner: cfg.Planner,
		TrainingGrace: TrainingGrace, Goal: cfg.Goal, ProfileDir: cfg.ArchiveDir}}, nil
}

// Dir holds the CDS archives, AOT caches and profiles of one app at one
// CPU count and goal, next to the database. It does not depend on the
// experiment, so that a rerun's candidates name the same archives and its
// trials have the same keys as the stored ones.
func Dir(db, app string, cfg Config) string {
	return filepath.Join(db+".tune", fmt.Sprintf("%s-%gcpu-%s", app, cfg.CPUs, cfg.Goal))
}

// Run runs the tune over the Session, begun by the caller, and stores its
// answer as the experiment's summary when it finished. It returns the
// result so far (nil if nothing ran) with the profile file the answer
// names, and the search's error.
func (t *Tune) Run(ctx context.Context) (*Result, string, error) {
	sess := t.Trials.Session
	if err := os.MkdirAll(t.Config.ArchiveDir, 0o755); err != nil {
		return nil, "", fmt.Errorf("cannot make the directory for archives and the profile: %w", err)
	}
	// Progress counts trials against the budget: its ETA is an upper
	// bound, as tune may stop before the budget is spent.
	sess.Expect(t.Config.Budget + t.Config.Reruns)
	res, runErr := Run(ctx, t.Config, t.Trials)
	if res == nil {
		return nil, "", runErr
	}
	given := t.given
	if res.Profile != t.Config.Profile {
		given = "" // the answer's profile was measured under the chosen options
	}
	profileFile, err := answerProfile(t.Config.ArchiveDir, given, res.Profile)
	if err != nil && sess.Progress != nil {
		fmt.Fprintf(sess.Progress, "warning: %v\n", err)
	}
	if runErr == nil {
		var sum judge.Summary
		if t.Summarize != nil {
			sum = t.Summarize(res, profileFile)
		}
		if err := sess.EndWith(&sum); err != nil {
			return res, profileFile, err
		}
	}
	return res, profileFile, runErr
}

// answerProfile is the profile file the answer names: the one given, or
// the measured one under its digest's name (the soak's exec got the same
// file).
func answerProfile(dir, given string, p *plan.Profile) (string, error) {
	switch {
	case given != "":
		return filepath.Abs(given)
	case p == nil:
		return "", nil
	}
	return WriteProfile(dir, p)
}

// RunAll runs search points side by side through the Session's Batch
// (Session.Parallel at a time: pods, or cgroups with CPUs of their own).
func (t *SessionTrials) RunAll(ctx context.Context, ps []Point) ([]Outcome, error) {
	planned := make([]experiment.Planned, len(ps))
	refused := make([]bool, len(ps))
	for i, p := range ps {
		spec, err := t.spec(p)
		var ref *plan.RefusedError
		switch {
		case errors.As(err, &ref):
			refused[i] = true
		case err != nil:
			return nil, err
		}
		planned[i] = experiment.Planned{Spec: spec, What: "tune " + p.String()}
	}
	var outs []Outcome
	for i, b := range t.Session.Batch(ctx, planned) {
		var ref *plan.RefusedError
		switch {
		case refused[i] || errors.As(b.Err, &ref):
			outs = append(outs, Outcome{Verdict: trial.KO, Kind: KindRefused})
		case b.Err != nil:
			return outs, b.Err
		case b.Result == nil:
			return outs, ctx.Err()
		default:
			outs = append(outs, outcomeOf(ps[i], b.Result))
		}
	}
	return outs, nil
}
