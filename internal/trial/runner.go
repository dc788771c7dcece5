package trial

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// flagsOption makes the JVM print its final flags at start; the output
// sink reads MaxHeapSize from it and hides the block.
const flagsOption = "-XX:+PrintFlagsFinal"

var trialSeq atomic.Int64

// Run performs one trial of app a under spec (from Prepare): start the app
// in the sandbox, time it to its first 2xx, drive the scenario, measure,
// stop it, and judge. The process and its cgroup are gone when Run
// returns, on every path. A KO is a Result, not an error; an error means
// jvmfit itself could not run the trial, and when ctx was cancelled the
// error is ctx.Err() and there is no Result (an interrupted trial is not
// a verdict and is not stored).
func Run(ctx context.Context, spec Spec, a *app.App, d Deps) (*Result, error) {
	if spec.Java == "" || spec.JDKVersion == 0 {
		return nil, errors.New("trial: spec is not prepared (call trial.Prepare first)")
	}
	slo, err := ParseSLO(spec.SLO)
	if err != nil {
		return nil, err
	}
	if d.Sandbox == nil || d.Prober == nil || (a.Scenario != "" && d.Loader == nil) {
		return nil, errors.New("trial: Deps needs a Sandbox, a Prober and a Loader (use DefaultDeps)")
	}
	if d.StopGrace <= 0 {
		d.StopGrace = 3 * time.Second
	}
	seq := trialSeq.Add(1)
	r := &Result{Spec: spec, Key: spec.Key(), StartedAt: time.Now()}
	r.Env = CollectEnv(spec)

	if d.Services == nil {
		d.Services = realServices{}
	}
	// Services start first and stop last (defers run in reverse), so the
	// app never runs without its database.
	svcs, err := d.Services.Start(ctx, a, spec, d.Progress)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	defer svcs.Stop()

	// The app's own temporary files (Tomcat's work directories, uploads)
	// go to a directory of the trial's, removed with it. It is not part of
	// the spec: it changes nothing the trial measures. hsperfdata stays in
	// /tmp, where HotSpot always writes it.
	appTmp, err := os.MkdirTemp("", "jvmfit-app-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a temporary directory for the app: %v", err)
	}
	defer os.RemoveAll(appTmp)
	opts := append(append([]string{}, spec.JVMOptions...), flagsOption)
	if !hasOption(opts, "-Djava.io.tmpdir=") {
		opts = append(opts, "-Djava.io.tmpdir="+appTmp)
	}
	launch, err := a.Expand(app.Values{Java: spec.Java, JVMOptions: opts, Exports: svcs.Exports()})
	if err != nil {
		return nil, err
	}
	var drv Driver
	if a.Scenario != "" {
		drv, err = d.Loader.Prepare(a.Scenario, scenarioVars(a, spec, launch.Port))
		if err != nil {
			return nil, err
		}
	}

	logDir, tempLog := d.LogDir, d.LogDir == ""
	if tempLog {
		if logDir, err = os.MkdirTemp("", "jvmfit-trial-"); err != nil {
			return nil, fmt.Errorf("cannot make a directory for the app's log: %v", err)
		}
	}
	logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d-%d.log", safeName(spec.AppName), os.Getpid(), seq))
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("cannot create the app's log: %v", err)
	}
	// A caller-given LogDir keeps every log; a temp one only KO logs.
	keepLog := !tempLog
	defer func() {
		logFile.Close()
		if keepLog {
			return
		}
		os.RemoveAll(logDir)
	}()
	out := newOutput(logFile)

	say := func(format string, args ...any) {
		if d.Progress != nil {
			fmt.Fprintf(d.Progress, format+"\n", args...)
		}
	}
	say("trial %s: %s, jvm %s: %s", spec.AppName, limitsText(spec), spec.JVM, joinArgs(launch.Argv))

	t0 := time.Now()
	// One writer for both streams: exec then gives the app a single pipe
	// (2>&1), so the tail keeps the order the app wrote in; with two pipes
	// its last words on stderr could be read before earlier stdout lines.
	both := out.stream()
	p, err := d.Sandbox.Start(ctx, Launch{
		Name: fmt.Sprintf("jvmfit-trial-%s-%d", safeName(spec.AppName), seq),
		Argv: launch.Argv, Env: launch.Env, Dir: launch.Dir,
		MemoryBytes: spec.MemoryBytes, CPUs: spec.CPUs, CPUSet: spec.CPUSet, NoLimits: spec.NoLimits,
		Stdout: both, Stderr: both,
	})
	if err != nil {
		return nil, err
	}
	stopped := false
	var exit Exit
	stop := func() Exit {
		if !stopped {
			exit, stopped = p.Stop(d.StopGrace), true
		}
		return exit
	}
	defer stop()
	sampling := d.Prober.Start(ctx, p)
	sampled := false
	var series []probe.Sample
	var summary Summary
	endSampling := func() {
		if !sampled {
			series, summary = sampling.Stop(time.Since(t0))
			sampled = true
		}
	}
	defer endSampling()

	startDur, rd := waitReady(ctx, launch.Ready, t0, a.ReadyTimeout, p.Done())
	if rd == readyCancelled {
		return nil, ctx.Err()
	}
	if rd == ready {
		r.StartSeconds = startDur.Seconds()
		say("ready in %.2fs", r.StartSeconds)
	}

	var loadErr error
	if rd == ready && drv != nil {
		loadErr = runLoad(ctx, drv, p, launch.Ready, spec, d, r)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if spec.NMT && rd == ready && alive(p) {
		jcmd := probe.JcmdFor(spec.Java)
		nmt, err := d.Prober.NMT(ctx, jcmd, p.Pid())
		if err != nil {
			r.Notes = append(r.Notes, "NMT summary unavailable: "+err.Error())
		}
		r.NMT = nmt
	}

	endSampling()
	died := !alive(p)
	peak, perr := p.MemoryPeak()
	exit = stop()
	services, svcErr := svcs.Stop()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r.Services = services
	r.Notes = append(r.Notes, serviceNotes(services)...)
	if svcErr != nil {
		r.Notes = append(r.Notes, "service cleanup: "+svcErr.Error())
	}
	if loadErr != nil && !died {
		return nil, fmt.Errorf("load: %v", loadErr)
	}
	r.EndedAt = time.Now()
	r.Series, r.Summary = series, summary
	r.HeapMaxBytes = out.HeapMax()
	r.MemoryPeakBytes = peak
	if perr != nil || peak == 0 {
		r.MemoryPeakBytes = summary.CgroupPeak
	}
	// The kernel's high-water mark: an OOM kill's last sample misses it.
	r.Summary.CgroupPeak = max(r.Summary.CgroupPeak, r.MemoryPeakBytes)
	r.WorkingSetPeakBytes = summary.WorkingSetPeak

	judge(r, slo, rd, died, exit, launch.Ready, a.ReadyTimeout)
	if r.Verdict == KO {
		r.OutputTail = out.Tail()
		keepLog = true
	}
	if keepLog {
		r.LogFile = logPath
	}
	return r, nil
}

// runLoad drives the scenario and stops early if the app dies under it.
func runLoad(ctx context.Context, drv Driver, p Process, ready string, spec Spec, d Deps, r *Result) error {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.Done():
			cancel()
		case <-lctx.Done():
		}
	}()
	o := LoadOptions{Base: baseURL(ready), Rate: spec.Rate, Warmup: spec.Warmup, Duration: spec.Duration, Progress: d.Progress}
	phases, measured, err := drv.Run(lctx, o)
	r.Phases, r.Load = phases, measured
	if err != nil || !alive(p) {
		return err
	}
	if spec.Saturate {
		sat, err := drv.Saturate(lctx, o)
		if err != nil && alive(p) && ctx.Err() == nil {
			r.Notes = append(r.Notes, "saturation probe failed: "+err.Error())
		}
		r.Saturation = sat
	}
	return nil
}

func alive(p Process) bool {
	select {
	case <-p.Done():
		return false
	default:
		return true
	}
}

// scenarioVars layers the scenario's variables: descriptor vars, then
// --var, then what only the runner knows (the port, the rate).
func scenarioVars(a *app.App, spec Spec, port int) map[string]string {
	vars := map[string]string{}
	for k, v := range a.Vars {
		vars[k] = v
	}
	for k, v := range spec.Vars {
		vars[k] = v
	}
	vars["port"] = strconv.Itoa(port)
	if spec.Rate > 0 {
		vars["rate"] = strconv.FormatFloat(spec.Rate, 'f', -1, 64)
	}
	return vars
}

// baseURL is the readiness URL's scheme and host: the load's target.
func baseURL(ready string) string {
	u, err := url.Parse(ready)
	if err != nil {
		return ready
	}
	return u.Scheme + "://" + u.Host
}

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

func safeName(s string) string {
	s = unsafeName().ReplaceAllString(s, "_")
	if s == "" || s[0] == '.' || s[0] == '-' || s[0] == '_' {
		s = "app" + s
	}
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

func joinArgs(argv []string) string {
	s := ""
	for i, a := range argv {
		if a == flagsOption {
			continue
		}
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}
