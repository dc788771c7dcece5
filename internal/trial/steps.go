package trial

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/launch"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// prepare starts the app's services (first, so the app never runs without
// its database), makes its temporary directory, expands its command line,
// prepares the scenario (a bad one costs no start) and opens its log.
func (t *trialRun) prepare(ctx context.Context) error {
	svcs, err := t.d.Services.Start(ctx, t.app, t.spec, t.d.Progress)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	t.svcs = svcs
	// The app's own temporary files (Tomcat's work directories, uploads)
	// go to a directory of the trial's, removed with it. It is not part of
	// the spec: it changes nothing the trial measures. hsperfdata stays in
	// /tmp, where HotSpot always writes it.
	if t.appTmp, err = makeAppTmp(); err != nil {
		return fmt.Errorf("cannot make a temporary directory for the app: %w", err)
	}
	opts := append(append([]string{}, t.spec.JVMOptions...), flagsOption)
	// A container's temporary files stay in it (its /tmp is a tmpfs
	// counted in its limit, removed with it).
	if t.app.Image == "" && !hasOption(opts, "-Djava.io.tmpdir=") {
		opts = append(opts, "-Djava.io.tmpdir="+t.appTmp)
	}
	l, err := t.app.Expand(app.Values{Java: t.spec.Java, JVMOptions: opts, Exports: svcs.Exports()})
	if err == nil {
		l, err = viaLauncher(l, t.spec) // the loop's hook: `jvmfit exec` wraps the java command
	}
	if err != nil {
		return err
	}
	// The mode's variables (the plan's MALLOC_ARENA_MAX) are added as
	// jvmfit exec adds them: unless the app's environment sets them.
	l.Env = launch.AddEnv(l.Env, t.spec.JVMEnv)
	l.Set = launch.AddEnv(l.Set, t.spec.JVMEnv)
	t.launch = l
	if t.app.Scenario != "" {
		if t.drv, err = t.d.Loader.Prepare(t.app.Scenario, scenarioVars(t.app, t.spec, l.Port, l.ManagementPort)); err != nil {
			return err
		}
	}
	if t.log, err = openLog(t.d.LogDir, t.spec, t.r.StartedAt); err != nil {
		return err
	}
	t.out = newOutput(t.log.file)
	cmdline := commandLine(l)
	if c, ok := t.d.Sandbox.(CommandLiner); ok {
		cmdline = c.CommandLine(t.sandboxLaunch(nil))
	}
	t.say("trial %s: %s%s, jvm %s: %s", t.spec.AppName, limitsText(t.spec), placementText(t.spec), t.spec.JVM, cmdline)
	return nil
}

// start runs the app in the sandbox and starts sampling it.
func (t *trialRun) start(ctx context.Context) error {
	// One writer for both streams: exec then gives the app a single pipe
	// (2>&1), so the tail keeps the order the app wrote in; with two pipes
	// its last words on stderr could be read before earlier stdout lines.
	both := t.out.stream()
	t.t0 = time.Now() // start time is measured from here, not from the services' start
	p, err := t.d.Sandbox.Start(ctx, t.sandboxLaunch(both))
	if err != nil {
		return err
	}
	t.p = p
	t.sampling = t.d.Prober.Start(ctx, p, t.spec)
	return nil
}

// sandboxLaunch is what the sandbox starts: the expanded command with the
// trial's limits, both streams to out.
func (t *trialRun) sandboxLaunch(out io.Writer) Launch {
	return Launch{
		Name: "jvmfit-trial-" + t.log.name,
		Argv: t.launch.Argv, Env: t.launch.Env, Dir: t.launch.Dir, Port: t.launch.Port,
		MemoryBytes: t.spec.MemoryBytes, CPUs: t.spec.CPUs, CPUSet: t.spec.AppCPUSet(), NoLimits: t.spec.NoLimits,
		Pids:   t.app.PidsLimit,
		Stdout: out, Stderr: out,
	}
}

// ready waits for the first 2xx; not being ready in time, or dying first,
// is for the verdict.
func (t *trialRun) ready(ctx context.Context) error {
	wctx, stopWatch := context.WithCancel(ctx)
	var gcWhy string
	bound := watchGC(wctx, t.sampling, &gcWhy)
	d, rd, last, alt := waitReadyOr(ctx, t.launch.Ready, t.spec.ReadyAlternatives, t.t0, t.app.ReadyTimeout,
		appState{died: t.p.Done(), stalled: t.p.Stalled(), gcBound: bound})
	stopWatch()
	if rd == readyCancelled {
		return ctx.Err()
	}
	if rd == readyGCBound {
		t.gcBound = gcWhy
		t.say("bound in GC: %s", gcWhy)
	}
	if alt != "" {
		t.say("%s answered 404; %s answered 2xx, taken as the readiness URL", t.launch.Ready, alt)
		t.r.ReadyFallback = alt
	}
	t.rd, t.lastAnswer = rd, last
	if rd == readyStalled {
		t.say("memory stall: %s", t.p.Stall())
	}
	if rd == ready {
		t.r.StartSeconds = d.Seconds()
		t.say("ready in %.2fs", t.r.StartSeconds)
	}
	return nil
}

// load drives the scenario, warm-up phases first, when the app is ready.
func (t *trialRun) load(ctx context.Context) error {
	if t.rd != ready || t.drv == nil {
		return nil
	}
	// A memory stall ends the load at once: the app answers nothing more.
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-t.p.Stalled():
			t.say("memory stall: %s", t.p.Stall())
			cancel()
		case <-lctx.Done():
		}
	}()
	t.loadErr = runLoad(lctx, t.drv, t.p, loadBase(t.launch), t.spec, t.d, t.r)
	if stalled(t.p) && ctx.Err() == nil {
		t.loadErr = nil // the verdict's, not jvmfit's failure
	}
	return ctx.Err()
}

// sample takes the NMT summary from the live app, ends sampling, reads the
// cgroup's peak, then stops the app and its services and records what they
// used.
func (t *trialRun) sample(ctx context.Context) error {
	r := t.r
	// A stalled JVM cannot answer an attach; asking would only wait.
	if t.spec.NMT && t.rd == ready && alive(t.p) && !stalled(t.p) {
		nmt, err := t.d.Prober.NMT(ctx, probe.JcmdFor(t.spec.Java), t.p.Pid())
		if err != nil {
			r.Notes = append(r.Notes, "NMT summary unavailable: "+err.Error())
		}
		r.NMT = nmt
	}
	t.endSampling()
	died := !alive(t.p)
	peak, perr := t.p.MemoryPeak()
	t.exit = t.stop()
	services, svcErr := t.svcs.Stop()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.Services = services
	r.Notes = append(r.Notes, serviceNotes(services)...)
	if svcErr != nil {
		r.Notes = append(r.Notes, "service cleanup: "+svcErr.Error())
	}
	if t.loadErr != nil && !died {
		return fmt.Errorf("load: %w", t.loadErr)
	}
	r.EndedAt = time.Now()
	r.Series, r.Summary = t.series, t.summary
	r.HeapMaxBytes = t.out.HeapMax()
	r.MemoryPeakBytes = peak
	if perr != nil || peak == 0 {
		r.MemoryPeakBytes = t.summary.CgroupPeak
	}
	// The kernel's high-water mark: an OOM kill's last sample misses it.
	r.Summary.CgroupPeak = max(r.Summary.CgroupPeak, r.MemoryPeakBytes)
	r.WorkingSetPeakBytes = t.summary.WorkingSetPeak
	t.died = died
	return nil
}

// verdict judges the trial; a KO keeps the app's last lines and its log.
func (t *trialRun) verdict() *Result {
	r := t.r
	area, codeFull := t.out.Memory()
	findings(r, area, codeFull)
	o := outcome{rd: t.rd, died: t.died, exit: t.exit, readyURL: t.launch.Ready, readyTimeout: t.app.ReadyTimeout, lastAnswer: t.lastAnswer, gcBound: t.gcBound}
	if !t.died && stalled(t.p) {
		o.stall = t.p.Stall()
	}
	judge(r, t.slo, o)
	portInUse(r, t.out.Tail(), t.rd == ready, t.launch.Port) // the loop's hook: a taken port is no verdict
	if r.Verdict == KO {
		r.OutputTail = t.out.Tail()
		t.log.keep = true
	}
	if t.log.keep {
		r.LogFile = t.log.path
	}
	return r
}
