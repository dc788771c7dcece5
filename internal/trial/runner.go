package trial

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// FlagsOption makes the JVM print its final flags at start; the output
// sink reads MaxHeapSize from it and hides the block. Echoes leave it out.
const FlagsOption = "-XX:+PrintFlagsFinal"

const flagsOption = FlagsOption

// Run performs one trial of app a under spec (from Prepare), as the steps
// below: prepare what the app needs, start it in the sandbox, time it to
// its first 2xx, drive the scenario (its warm-up phases, then the measured
// ones), sample what it used and stop it, then judge. The process and its
// cgroup, the services, the sampler and the temporary directories are gone
// when Run returns, on every path. A KO is a Result, not an error; an error
// means jvmfit itself could not run the trial, and when ctx was cancelled
// the error is ctx.Err() and there is no Result (an interrupted trial is
// not a verdict and is not stored).
func Run(ctx context.Context, spec Spec, a *app.App, d Deps) (*Result, error) {
	t, err := newRun(spec, a, d)
	if err != nil {
		return nil, err
	}
	defer t.cleanup()
	if spec.SideCPUSet != "" {
		// The load generator is jvmfit's own goroutines: on the side CPUs
		// with the services, off the app's (placement.go).
		restore, err := pinSelf(spec.SideCPUSet)
		if err != nil {
			return nil, err
		}
		defer restore()
	}
	steps := []func(context.Context) error{
		t.prepare, // services, temporary directory, command line, scenario, log
		t.start,   // the app in its cgroup, and the sampler
		t.ready,   // the first 2xx from the readiness URL
		t.load,    // the scenario: warm-up phases, then the measured ones
		t.sample,  // NMT, the sampled series, the peak; the app is stopped
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return t.verdict(), nil
}

// trialRun is one trial's state as it goes through the steps; cleanup
// undoes whatever the steps got to.
type trialRun struct {
	spec Spec
	app  *app.App
	d    Deps
	slo  SLO
	r    *Result

	svcs    RunningServices
	appTmp  string
	launch  app.Launch
	drv     Driver
	log     *appLog
	out     *output
	t0      time.Time
	p       Process
	exit    Exit
	stopped bool

	sampling Sampling
	sampled  bool
	series   []probe.Sample
	summary  Summary

	rd         readiness
	lastAnswer string // the readiness URL's last answer that was not 2xx
	gcBound    string // why the JVM was judged bound in GC before ready (gcbound.go)
	loadErr    error
	died       bool
}

// newRun checks what needs no work: a prepared spec, its SLO, the deps.
func newRun(spec Spec, a *app.App, d Deps) (*trialRun, error) {
	if spec.Java == "" || spec.JDKVersion == 0 {
		return nil, errors.New("trial: spec is not prepared (call trial.Prepare first)")
	}
	slo, err := ParseSLO(spec.SLO)
	if err != nil {
		return nil, fmt.Errorf("--slo: %w", err)
	}
	if d.Sandbox == nil || d.Prober == nil || (a.Scenario != "" && d.Loader == nil) {
		return nil, errors.New("trial: Deps needs a Sandbox, a Prober and a Loader (a backend gives them: Options.Deps)")
	}
	if spec.StopGrace > 0 {
		d.StopGrace = spec.StopGrace
	}
	if d.StopGrace <= 0 {
		d.StopGrace = 3 * time.Second
	}
	if d.Services == nil {
		d.Services = realServices{}
	}
	r := &Result{Spec: spec, Key: spec.Key(), StartedAt: time.Now()}
	r.Env = CollectEnv(spec)
	if spec.Image != "" {
		r.Env.JDK = imageJDKText(spec)
	}
	return &trialRun{spec: spec, app: a, d: d, slo: slo, r: r}, nil
}

func (t *trialRun) say(format string, args ...any) {
	if t.d.Progress != nil {
		fmt.Fprintf(t.d.Progress, format+"\n", args...)
	}
}

// stop ends the app once and keeps how it ended.
func (t *trialRun) stop() Exit {
	if t.p != nil && !t.stopped {
		t.exit, t.stopped = t.p.Stop(t.d.StopGrace), true
	}
	return t.exit
}

// endSampling stops the sampler once and keeps its series.
func (t *trialRun) endSampling() {
	if t.sampling != nil && !t.sampled {
		t.series, t.summary = t.sampling.Stop(time.Since(t.t0))
		t.sampled = true
	}
}

// cleanup undoes the steps in reverse: the sampler, the app and its
// cgroup, the log (kept on KO or in a caller's LogDir), the app's
// temporary directory, and last the services, so that the app never runs
// without its database. Every part is safe to repeat.
func (t *trialRun) cleanup() {
	t.endSampling()
	t.stop()
	if t.log != nil {
		t.log.close()
	}
	if t.appTmp != "" {
		os.RemoveAll(t.appTmp)
	}
	if t.svcs != nil {
		t.svcs.Stop()
	}
}

func stalled(p Process) bool {
	select {
	case <-p.Stalled():
		return true
	default:
		return false
	}
}

func alive(p Process) bool {
	select {
	case <-p.Done():
		return false
	default:
		return true
	}
}
