package experiment

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// DefaultSoak is how long minmem's proof trial measures by default: long
// enough to outlast the search's short trials several times over, short
// enough to keep the experiment in minutes.
const DefaultSoak = time.Minute

// soakTries bounds the proof: the first soak at the recommended limit,
// then up to two more, each one rounding step (16 MiB) higher.
const soakTries = 3

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
// one rounding step and soaks again, at most soakTries times in all. The
// recommendation is Tested when the last soak passed.
func (p MinMemPlan) Soak(ctx context.Context, s *Session, rec *Recommendation, d time.Duration) error {
	if trial.CanExec(s.App, rec.JVM) {
		rec.Profile = s.Base.Profile
	}
	for i := 0; i < soakTries; i++ {
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
		spec := p.spec(s, rec.CPUs, rec.JVM, rec.MemoryBytes)
		spec.Duration, spec.Soak = d, true
		// A jvmfit mode is recommended as `jvmfit exec`: prove that.
		if trial.CanExec(s.App, rec.JVM) {
			spec.Launcher = trial.LauncherExec
		}
		if rec.Java != "" {
			spec.Java = rec.Java
		}
		what := fmt.Sprintf("soak %s cpus=%s jvm=%s memory=%s", d, fmtCPUs(rec.CPUs), rec.JVM, size.Format(rec.MemoryBytes))
		r, _, err := s.Trial(ctx, spec, what)
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

// soakText is the recommendation's proof in one Markdown bullet.
func (r *Recommendation) soakText() string {
	if len(r.Soak) == 0 {
		return ""
	}
	var ko []string
	for _, s := range r.Soak {
		if s.Verdict != trial.OK {
			ko = append(ko, fmt.Sprintf("%s (%s)", size.Format(s.MemoryBytes), strings.Join(s.Failed, "; ")))
		}
	}
	last := r.Soak[len(r.Soak)-1]
	if !r.Tested {
		return fmt.Sprintf("- **Not proven**: a %s soak failed at %s. The footprint grows over a longer run than the search's trials: search again with a --duration closer to the soak's\n",
			last.Duration, strings.Join(ko, ", "))
	}
	trialNo := ""
	if last.TrialID > 0 {
		trialNo = fmt.Sprintf("trial #%d: ", last.TrialID)
	}
	s := fmt.Sprintf("- **Proven by a soak**: %s at %s, OK (%sp99 %s, peak %s)", last.Duration, size.Format(last.MemoryBytes),
		trialNo, last.P99.Round(10*time.Microsecond), size.Format(last.MemoryPeakBytes))
	if len(ko) > 0 {
		s += "; it failed first at " + strings.Join(ko, ", ")
	}
	return s + "\n"
}
