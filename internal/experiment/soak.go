package experiment

import (
	"context"
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// DefaultSoak is how long minmem's proof trial measures by default: long
// enough to outlast the search's short trials several times over, short
// enough to keep the experiment in minutes.
const DefaultSoak = time.Minute

// SoakRun is one proof trial of a recommendation.
type SoakRun struct {
	TrialID         int64         `json:"trial_id,omitempty"`
	MemoryBytes     int64         `json:"memory_bytes"`
	Duration        time.Duration `json:"duration_ns"`
	Verdict         trial.Verdict `json:"verdict"`
	Failed          []string      `json:"failed,omitempty"`
	MemoryPeakBytes int64         `json:"memory_peak_bytes"`
	P99             time.Duration `json:"p99_ns,omitempty"`
}

// Soak proves a recommendation with a longer trial at its limit. The
// search judged short trials near the edge; the margin above it is a rule
// of thumb until a run as long as d holds there. A KO raises the limit by
// one rounding step and soaks again, at most judge.SoakTries (3) times in all. The
// recommendation is Tested when the last soak passed.
func (p MinMemPlan) Soak(ctx context.Context, s *Session, rec *Recommendation, d time.Duration) error {
	return soak(ctx, s, rec, d, func(mem int64) trial.Spec { return p.spec(s, rec.CPUs, rec.JVM, mem) })
}

// Soak proves a sweep's (or compare's) recommendation as minmem proves
// its own: the same soak, at the rate the recommendation was judged at.
func (sw Sweep) Soak(ctx context.Context, s *Session, rec *Recommendation, d time.Duration) error {
	return soak(ctx, s, rec, d, func(mem int64) trial.Spec {
		return Cell{Java: rec.Java, JVM: rec.JVM, CPUs: rec.CPUs, MemoryBytes: mem, Rate: rec.Rate}.Spec(s.Base)
	})
}

// soak runs the proof of rec, each trial spec(limit) made a soak of d. A
// jvmfit mode is recommended as `jvmfit exec`, so that is what its soak
// runs (when the descriptor's command starts java itself): the entrypoint
// recommended is the entrypoint proven.
func soak(ctx context.Context, s *Session, rec *Recommendation, d time.Duration, spec func(mem int64) trial.Spec) error {
	rec.describe(s)
	for i := 0; i < judge.SoakTries; i++ {
		if i > 0 {
			failed := rec.MemoryBytes
			rec.MemoryBytes += marginRound
			rec.MarginBytes += marginRound
			rec.MarginWhy += fmt.Sprintf("; raised %s after the soak at %s failed", size.Format(marginRound), size.Format(failed))
			o, err := s.OptionsAt(rec.JVM, rec.Java, rec.MemoryBytes, rec.CPUs)
			if err != nil {
				return fmt.Errorf("options for %s at %s: %w", rec.JVM, size.Format(rec.MemoryBytes), err)
			}
			rec.Options = o
		}
		sp := spec(rec.MemoryBytes)
		sp.Duration, sp.Soak, sp.Purpose = d, true, trial.PurposeSoak
		if trial.CanExec(s.App, rec.JVM) {
			sp.Launcher = trial.LauncherExec
		}
		if rec.Java != "" {
			sp.Java = rec.Java
		}
		what := fmt.Sprintf("soak %s cpus=%s jvm=%s memory=%s", d, fmtCPUs(rec.CPUs), rec.JVM, size.Format(rec.MemoryBytes))
		r, _, err := s.Trial(ctx, sp, what)
		if err != nil {
			return err
		}
		rec.Soak = append(rec.Soak, soakRun(r, d))
		rec.ViaExec = r.Spec.Launcher == trial.LauncherExec
		if rec.Tested = r.Verdict == trial.OK; rec.Tested {
			return nil
		}
	}
	return nil
}

// describe records what the proof command needs: the descriptor, the rate
// (the session's when the candidate had none), and for a jvmfit mode the
// profile the launcher planned with, which exec is given too.
func (r *Recommendation) describe(s *Session) {
	r.App = s.Base.App
	if r.Rate == 0 {
		r.Rate = s.Base.Rate
	}
	if trial.CanExec(s.App, r.JVM) {
		r.Profile = s.Base.Profile
	}
}

func soakRun(r *trial.Result, d time.Duration) SoakRun {
	s := SoakRun{TrialID: r.ID, MemoryBytes: r.Spec.MemoryBytes, Duration: d, Verdict: r.Verdict, MemoryPeakBytes: r.MemoryPeakBytes}
	if r.Verdict != trial.OK {
		s.Failed = r.Failed
		if len(s.Failed) == 0 && r.Kind != "" {
			s.Failed = []string{string(r.Kind)}
		}
	}
	if r.Load != nil {
		s.P99 = r.Load.Latencies.P99
	}
	return s
}
