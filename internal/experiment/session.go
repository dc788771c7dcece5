package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// RunFunc runs one fully prepared trial.
type RunFunc func(ctx context.Context, spec trial.Spec) (*trial.Result, error)

// PrepareFunc fills a spec's derived fields (java path, JDK version, the
// options its JVM mode resolves to at its limits) so that its Key is known
// before it runs.
type PrepareFunc func(trial.Spec) (trial.Spec, error)

// Session is one experiment's life, and the only way an experiment runs a
// trial (Trial). It prepares every trial before it runs, so bad input is
// refused before anything starts; takes a stored identical trial (same
// Key) instead of running it again unless Fresh; stores every trial it ran
// before the next one starts; writes the one progress stream; and treats a
// cancelled context (SIGINT, SIGTERM, SIGHUP: see cmd/jvmfit/main.go) as an
// interruption whose trial is not stored, so the same command resumes.
// Strategies (minmem's search and soak, sweep, compare) only choose specs.
type Session struct {
	App        *app.App
	OptionSets string       // overrides the descriptor's option-sets file
	Base       trial.Spec   // what every trial shares (java, load, SLO, NMT)
	Store      *store.Store // nil = keep nothing, reuse nothing
	Fresh      bool         // run every trial even when the store holds it
	KeepLogs   bool         // keep OK trials' app logs too
	// LogRoot holds the app logs, one directory per experiment ("" = the
	// trial's temporary directory).
	LogRoot string
	// Backend is where the trials run (UseBackend chooses it from the
	// command's config); nil = this machine (backend.Local: a cgroup, or a
	// container for an image app).
	Backend trial.Backend
	// LogDir keeps this experiment's app logs: Begin sets it below LogRoot
	// ("" = each trial's temporary directory).
	LogDir string
	// Prepare and Run, when set, stand in for trial.Prepare and the
	// Backend, so tests can drive a Session without JVMs.
	Prepare PrepareFunc
	Run     RunFunc
	// Progress receives one line per trial and the trials' own steps; nil =
	// silent. ProgressWriter makes it plain lines when it is not a terminal.
	Progress io.Writer

	ID   int64  // the experiment's id in Store, set by Begin
	Name string // the experiment's name ("" = KIND-APP-TIME)

	// Parallel is how many trials Batch runs at a time (0 or 1: one).
	Parallel int
	// places, set when trials run side by side on this machine, gives
	// each running trial CPUs of its own (places.go).
	places *places

	// SweepStale, when set, is the age past which the sweeps before the
	// first trial remove anyone's leftover containers and Jobs, not only
	// this database's gone runs' (--sweep-stale).
	SweepStale time.Duration
	owned      sync.Once
	ownerErr   error

	// Summarize renders a recommendation, with minmem's searches, as the
	// experiment's stored summary: report.Summarize, wired by the command,
	// so that experiment returns values and renders nothing itself.
	Summarize func(rec *Recommendation, search []ModeResult) judge.Summary

	count counter
	// mu serialises what concurrent trials share (Batch): preparing,
	// the store, the counts and the progress stream.
	mu sync.Mutex
}

// Begin records a new experiment of that kind; args (the command's flags)
// are kept for the report. Call it once every input is checked.
func (s *Session) Begin(kind string, args any) error {
	if s.Name == "" {
		appName := "app"
		if s.App != nil {
			appName = s.App.Name
		}
		s.Name = fmt.Sprintf("%s-%s-%s", kind, appName, time.Now().Format("20060102-150405"))
	}
	if s.Store == nil {
		return nil
	}
	id, err := s.Store.NewExperiment(s.Name, kind, args)
	if err != nil {
		return err
	}
	s.ID = id
	if s.LogRoot != "" {
		s.LogDir = s.logDir()
		// 0700: the app logs inside hold what the app prints.
		if err := os.MkdirAll(s.LogDir, 0o700); err != nil {
			return fmt.Errorf("cannot make the log directory: %w", err)
		}
	}
	return nil
}

func (s *Session) logDir() string { return filepath.Join(s.LogRoot, strconv.FormatInt(s.ID, 10)) }

// End stores what a finished experiment concluded (nil = nothing) and
// marks it complete. An experiment that failed or was interrupted is never
// ended, so reports say it was cut short, and has no final answer. The
// answer is stored as Summarize renders it (the report's words; without
// one, an empty summary marks that there was an answer).
func (s *Session) End(rec *Recommendation, search []ModeResult) error {
	if rec == nil {
		return s.EndWith(nil)
	}
	var sum judge.Summary
	if s.Summarize != nil {
		sum = s.Summarize(rec, search)
	}
	return s.EndWith(&sum)
}

// EndWith marks the experiment complete with any strategy's answer (tune's
// among them) as its summary; nil stores none.
func (s *Session) EndWith(sum *judge.Summary) error {
	if s.Store == nil {
		return nil
	}
	if sum != nil {
		if err := s.Store.SetSummary(s.ID, *sum); err != nil {
			return fmt.Errorf("the trials are stored, but the answer was not: %w", err)
		}
	}
	return s.Store.EndExperiment(s.ID)
}

// Close removes the log directories when no log was kept in them.
func (s *Session) Close() {
	if s.LogRoot != "" && s.ID != 0 && os.Remove(s.logDir()) == nil {
		os.Remove(s.LogRoot)
	}
}

// Counts says how many trials this Session ran and how many it took from
// the store.
func (s *Session) Counts() (ran, reused int) { return s.count.ran, s.count.reused }

// OptionsAt gives the options a mode resolves to at a limit (the launcher's
// plan for jvmfit modes): what a recommendation tells the user to apply.
func (s *Session) OptionsAt(jvm, java string, mem int64, cpus float64) ([]string, error) {
	sp := s.Base
	sp.JVM, sp.Java, sp.MemoryBytes, sp.CPUs, sp.NMT = jvm, java, mem, cpus, false
	sp, err := s.prepare(sp)
	if err != nil {
		return nil, err
	}
	return sp.JVMOptions, nil
}
