package trial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The fakes stand in for the sandbox, the prober, the load generator and
// the services, so that Run's steps are tested without cgroups or JVMs:
// the verdict for what the sandbox reports, and the cleanup on every path.

// fakeProcess answers the readiness URL until it dies or is stopped.
type fakeProcess struct {
	mu      sync.Mutex
	out     io.Writer
	srv     *http.Server
	done    chan struct{}
	exit    Exit
	stops   int
	stopped bool
	stalled chan struct{}
	stall   string
}

func (p *fakeProcess) Stalled() <-chan struct{} { return p.stalled }
func (p *fakeProcess) Stall() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stall
}

// stallNow reports a memory stall, as the sandbox does; the app lives on.
func (p *fakeProcess) stallNow(why string) {
	p.mu.Lock()
	p.stall = why
	p.mu.Unlock()
	close(p.stalled)
}

func (p *fakeProcess) Pid() int                   { return os.Getpid() }
func (p *fakeProcess) Done() <-chan struct{}      { return p.done }
func (p *fakeProcess) MemoryPeak() (int64, error) { return 100 * size.MiB, nil }
func (p *fakeProcess) exitNow() Exit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exit
}

// die ends the process as the sandbox would report it, after it wrote lines.
func (p *fakeProcess) die(e Exit, lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(p.out, l)
	}
	p.end(e)
}

func (p *fakeProcess) end(e Exit) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		return false
	default:
	}
	p.exit = e
	p.srv.Close()
	close(p.done)
	return true
}

func (p *fakeProcess) Stop(time.Duration) Exit {
	p.mu.Lock()
	p.stops++
	p.mu.Unlock()
	p.end(Exit{Code: -1, Signal: "SIGTERM"})
	return p.exitNow()
}

// fakeSandbox "starts" the app: an HTTP server on the port the command's
// last word names.
type fakeSandbox struct {
	mu     sync.Mutex
	procs  []*fakeProcess
	launch Launch
	fail   error // Start fails with it, as on a cgroup tree jvmfit cannot use
	// handler serves the app's requests; nil answers 200 to everything.
	handler http.Handler
}

func (s *fakeSandbox) Start(ctx context.Context, l Launch) (Process, error) {
	s.launch = l
	if s.fail != nil {
		return nil, s.fail
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+l.Argv[len(l.Argv)-1])
	if err != nil {
		return nil, err
	}
	p := &fakeProcess{out: l.Stdout, done: make(chan struct{}), stalled: make(chan struct{})}
	h := s.handler
	if h == nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	}
	p.srv = &http.Server{Handler: h}
	go p.srv.Serve(ln)
	s.mu.Lock()
	s.procs, s.launch = append(s.procs, p), l
	s.mu.Unlock()
	fmt.Fprintln(l.Stdout, "fake: started")
	return p, nil
}

func (s *fakeSandbox) procCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.procs)
}

func (s *fakeSandbox) proc() *fakeProcess {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.procs[len(s.procs)-1]
}

type fakeProber struct{ started, stopped int }

func (f *fakeProber) Start(ctx context.Context, p Process, _ Spec) Sampling {
	f.started++
	return fakeSampling{f}
}

func (f *fakeProber) NMT(ctx context.Context, jcmd string, pid int) (map[string]NMT, error) {
	return nil, errors.New("no NMT in a fake")
}

type fakeSampling struct{ f *fakeProber }

func (s fakeSampling) Stop(wall time.Duration) ([]probe.Sample, Summary) {
	s.f.stopped++
	return nil, Summary{CgroupPeak: 90 * size.MiB}
}

// fakeLoader's driver calls during with the running process, then waits
// for the load's context to end (the app died, or the trial was cancelled)
// unless during returns a report.
type fakeLoader struct {
	sb     *fakeSandbox
	during func(p *fakeProcess) *record.Report
}

func (l fakeLoader) Prepare(path string, vars map[string]string) (Driver, error) { return l, nil }

func (l fakeLoader) Run(ctx context.Context, o LoadOptions) ([]*record.Report, *record.Report, error) {
	if rep := l.during(l.sb.proc()); rep != nil {
		return []*record.Report{rep}, rep, nil
	}
	<-ctx.Done()
	// As load.Run does, what was recorded before the end.
	part := &record.Report{Requests: 1}
	return []*record.Report{part}, part, ctx.Err()
}

func (l fakeLoader) Saturate(ctx context.Context, o LoadOptions) (*record.Report, error) {
	return nil, errors.New("not asked")
}

type fakeServices struct {
	stopped int
	startIn time.Duration // how long the services take to start
}

func (f *fakeServices) Start(ctx context.Context, a *app.App, spec Spec, progress io.Writer) (RunningServices, error) {
	time.Sleep(f.startIn)
	return f, nil
}
func (f *fakeServices) Exports() map[string]string { return nil }
func (f *fakeServices) Stop() ([]ServiceUsage, error) {
	f.stopped++
	return nil, nil
}

type fakes struct {
	sb   *fakeSandbox
	pr   *fakeProber
	svcs *fakeServices
	deps Deps
	app  *app.App
	spec Spec
}

func newFakes(t *testing.T, during func(p *fakeProcess) *record.Report) *fakes {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.yaml"), []byte("phases: []\n"), 0o644)
	a, err := app.Parse(filepath.Join(dir, "app.yaml"), []byte("name: fake\ncommand: [\"${java}\", \"${jvm_options}\", \"Main\", \"${port}\"]\nready: http://127.0.0.1:${port}/health\nready_timeout: 5s\nscenario: s.yaml\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakes{sb: &fakeSandbox{}, pr: &fakeProber{}, svcs: &fakeServices{}, app: a}
	f.deps = Deps{Sandbox: f.sb, Prober: f.pr, Loader: fakeLoader{f.sb, during}, Services: f.svcs, Progress: testLog{t}, StopGrace: time.Second}
	f.spec = Spec{AppName: "fake", Java: "/nonexistent/java", JDKVersion: 17, JVM: "default", MemoryBytes: 64 * size.MiB, CPUs: 1, SLO: "success>=0.99"}
	return f
}

// checkNoAppTmp: the app's temporary directory is gone with the trial.
func (f *fakes) checkNoAppTmp(t *testing.T) {
	t.Helper()
	for _, a := range f.sb.launch.Argv {
		if dir, ok := strings.CutPrefix(a, "-Djava.io.tmpdir="); ok {
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the app's temporary directory %s is left (%v)", dir, err)
			}
		}
	}
}

// everything Run started is ended, and nothing of the trial's is left in
// the temporary directory.
func (f *fakes) checkCleanedUp(t *testing.T, r *Result) {
	t.Helper()
	p := f.sb.proc()
	if alive(p) {
		t.Error("the process is still running")
	}
	if p.stops == 0 || f.pr.stopped != f.pr.started || f.svcs.stopped == 0 {
		t.Errorf("stops %d, sampling %d/%d stopped, services stopped %d times", p.stops, f.pr.stopped, f.pr.started, f.svcs.stopped)
	}
	f.checkNoAppTmp(t)
	if r == nil || r.LogFile == "" {
		return
	}
	if _, err := os.Stat(r.LogFile); err != nil {
		t.Errorf("a KO's log is not kept: %v", err)
	}
	os.RemoveAll(filepath.Dir(r.LogFile))
}

func TestFakeKernelOOMKillUnderLoadIsOOMKilled(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		p.die(Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}, "serving")
		return nil
	})
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindOOMKilled || !strings.Contains(r.Failed[0], "OOM killer under load at the 64Mi limit") {
		t.Fatalf("%s %s %q", r.Verdict, r.Kind, r.Failed)
	}
	if r.MemoryPeakBytes != 100*size.MiB || r.ExitSignal != "SIGKILL" || !strings.Contains(r.OutputTail, "serving") {
		t.Errorf("peak %d signal %q tail %q", r.MemoryPeakBytes, r.ExitSignal, r.OutputTail)
	}
	f.checkCleanedUp(t, r)
}

func TestFakeJavaOOMIsItsOwnVerdict(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		p.die(Exit{Code: 3}, "Terminating due to java.lang.OutOfMemoryError: Metaspace")
		return nil
	})
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	want := "the JVM ran out of memory (java.lang.OutOfMemoryError: Metaspace) under load and exited with code 3"
	if r.Verdict != KO || r.Kind != KindJavaOOM || r.OOMArea != "Metaspace" || r.Failed[0] != want {
		t.Fatalf("%s %s %q %q", r.Verdict, r.Kind, r.OOMArea, r.Failed)
	}
	if !strings.Contains(r.Line(), "KO java-oom: "+want) {
		t.Errorf("line %q", r.Line())
	}
	f.checkCleanedUp(t, r)
}

// The kernel's kill is the cause even when the JVM reported an OOM first.
func TestFakeKernelKillBeatsJavaOOM(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		p.die(Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}, "java.lang.OutOfMemoryError: Direct buffer memory")
		return nil
	})
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil || r.Kind != KindOOMKilled || r.OOMArea != "Direct buffer memory" {
		t.Fatalf("%v: %+v", err, r)
	}
	f.checkCleanedUp(t, r)
}

func TestFakeCodeCacheFullIsAFindingOnAnOK(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		fmt.Fprintln(p.out, "OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.")
		return &record.Report{Requests: 10, Success: 1}
	})
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != OK || len(r.Findings) != 1 || r.Findings[0] != CodeCacheFinding || !strings.Contains(r.Line(), "OK; "+CodeCacheFinding) {
		t.Fatalf("%s %q line %q", r.Verdict, r.Findings, r.Line())
	}
	f.checkCleanedUp(t, r)
}

func TestFakeCancelUnderLoadStopsEverything(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		cancel()
		return nil
	})
	f.deps.LogDir = ""
	f.spec.AppName = fmt.Sprintf("cancelled%d", os.Getpid())
	r, err := Run(ctx, f.spec, f.app, f.deps)
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("got %v, %v; want no result and context.Canceled", r, err)
	}
	f.checkCleanedUp(t, nil)
	if logs, _ := filepath.Glob(filepath.Join(os.TempDir(), "jvmfit-trial-*", f.spec.AppName+"-*.log")); len(logs) > 0 {
		t.Errorf("a cancelled trial's log is left: %s", logs)
	}
}

// Issue 13: a kept log is named for its trial, not for its position.
func TestLogIsNamedForItsTrial(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report {
		p.die(Exit{Code: 1})
		return nil
	})
	f.deps.LogDir = t.TempDir()
	f.spec.JVM, f.spec.MemoryBytes, f.spec.Repeat = "jvmfit:footprint", 96*size.MiB, 2
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	want := "fake-96Mi-1cpu-jvmfit_footprint-r2-" + r.StartedAt.Format("20060102-150405") + ".log"
	if filepath.Base(r.LogFile) != want {
		t.Errorf("log %s, want %s", filepath.Base(r.LogFile), want)
	}
	r2, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil || r2.LogFile == r.LogFile {
		t.Errorf("two trials in one second share a log: %s (%v)", r2.LogFile, err)
	}
}

// A sandbox that cannot start the app is jvmfit's error, not a verdict,
// and what the trial made before (services, directories) is undone.
func TestFakeStartFailureIsAnErrorAndCleansUp(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report { t.Fatal("load ran without an app"); return nil })
	f.sb.fail = errors.New("cannot create cgroup")
	f.deps.LogDir = ""
	f.spec.AppName = fmt.Sprintf("nostart%d", os.Getpid())
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if r != nil || err == nil || err.Error() != "cannot create cgroup" {
		t.Fatalf("got %v, %v", r, err)
	}
	if f.svcs.stopped == 0 || f.pr.started != 0 {
		t.Errorf("services stopped %d times, sampling started %d times", f.svcs.stopped, f.pr.started)
	}
	f.checkNoAppTmp(t)
	if logs, _ := filepath.Glob(filepath.Join(os.TempDir(), "jvmfit-trial-*", f.spec.AppName+"-*.log")); len(logs) > 0 {
		t.Errorf("the log of a trial that never started is left: %s", logs)
	}
}

// The app's start time runs from its own start, not from its database's.
func TestFakeStartTimeExcludesTheServices(t *testing.T) {
	f := newFakes(t, func(p *fakeProcess) *record.Report { return &record.Report{Requests: 1, Success: 1} })
	f.svcs.startIn = time.Second
	r, err := Run(context.Background(), f.spec, f.app, f.deps)
	if err != nil {
		t.Fatal(err)
	}
	if r.StartSeconds <= 0 || r.StartSeconds >= 0.9 {
		t.Errorf("start %.2fs with services that took 1s to start and an app ready at once", r.StartSeconds)
	}
	f.checkCleanedUp(t, r)
}
