//go:build linux

package trial

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

func TestFixtureOKUnderLimitsAndTheJVMSeesThem(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "serve", 30*time.Second)
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1, SLO: "success>=0.99,throughput>=0.9*rate,start<=20s,memory<=256Mi"})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != OK || r.Kind != "" || len(r.Failed) != 0 {
		t.Fatalf("verdict %s %s %q, want OK\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if r.StartSeconds <= 0 || r.StartSeconds > 20 {
		t.Errorf("start %.2fs", r.StartSeconds)
	}
	if r.Load == nil || r.Load.Requests < 50 || r.Load.TargetRate != 40 {
		t.Fatalf("measured load %+v", r.Load)
	}
	if len(r.Phases) != 2 {
		t.Errorf("%d phases, want warm-up and measure", len(r.Phases))
	}
	// JDK 17 at 256Mi and 1 CPU: SerialGC, MaxHeap = a quarter..half of
	// the limit. Either way it proves the JVM saw the limit, not the host.
	if r.HeapMaxBytes < 60*size.MiB || r.HeapMaxBytes > 128*size.MiB {
		t.Errorf("heap max %s, want 60Mi..128Mi for a 256Mi limit", size.Format(r.HeapMaxBytes))
	}
	if r.MemoryPeakBytes <= 0 || r.MemoryPeakBytes > 256*size.MiB {
		t.Errorf("memory peak %d", r.MemoryPeakBytes)
	}
	log, err := os.ReadFile(r.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	want := `"cpus":1,`
	if !strings.Contains(string(log), want) || !strings.Contains(string(log), `"memory":268435456}`) {
		t.Errorf("the JVM inside did not report 1 CPU and 256Mi:\n%s", log)
	}
	if strings.Contains(string(log), "MaxHeapSize") {
		t.Error("the PrintFlagsFinal block leaked into the app's log")
	}
	// The app's temporary files live in a directory of the trial's, gone
	// when the trial is.
	_, tmp, ok := strings.Cut(string(log), "fixture tmpdir: ")
	tmp, _, _ = strings.Cut(tmp, "\n")
	if !ok || !strings.Contains(tmp, "jvmfit-app-") {
		t.Errorf("the app's java.io.tmpdir is %q, want a trial directory", tmp)
	} else if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the app's temporary directory %s is left behind (%v)", tmp, err)
	}
	if g := ownTrialGroups(t); len(g) != 0 {
		t.Errorf("cgroups left behind: %v", g)
	}
	sm := r.Summary
	if len(r.Series) < 8 || sm.RSSPeak <= 0 || sm.CgroupPeak <= 0 || sm.ThreadsPeak < 5 || sm.HeapCommPeak <= 0 || sm.CPUTime <= 0 {
		t.Errorf("%d samples, summary %+v", len(r.Series), sm)
	}
	b, _ := json.Marshal(r)
	var top map[string]any
	json.Unmarshal(b, &top)
	for _, k := range []string{"verdict", "kind", "failed", "start_seconds", "memory_peak_bytes", "load"} {
		if _, ok := top[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}

func TestExitAtOnceIsKOExitedWithCodeAndTail(t *testing.T) {
	a := fixtureApp(t, "exit", 30*time.Second)
	a.Command[len(a.Command)-1] = "3" // exit code instead of the port
	spec := prepared(t, a, Spec{NoLimits: os.Geteuid() != 0, MemoryBytes: 256 * size.MiB, CPUs: 1})
	start := time.Now()
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindExited || r.ExitCode == nil || *r.ExitCode != 3 {
		t.Fatalf("got %s %s code %v, want KO exited 3", r.Verdict, r.Kind, r.ExitCode)
	}
	if !strings.Contains(r.Failed[0], "exited with code 3 before it was ready") {
		t.Errorf("reason %q", r.Failed[0])
	}
	lines := strings.Split(r.OutputTail, "\n")
	if len(lines) != tailLines || !strings.Contains(r.OutputTail, "fixture line 40") || !strings.Contains(r.OutputTail, "exiting on purpose") {
		t.Errorf("tail (%d lines):\n%s", len(lines), r.OutputTail)
	}
	if strings.Contains(r.OutputTail, "{product}") {
		t.Error("PrintFlagsFinal lines in the tail")
	}
	if time.Since(start) > 15*time.Second {
		t.Errorf("an app that exits at once took %s to judge", time.Since(start))
	}
}

func TestNeverReadyIsKONotReady(t *testing.T) {
	a := fixtureApp(t, "never", 2*time.Second)
	spec := prepared(t, a, Spec{NoLimits: os.Geteuid() != 0, MemoryBytes: 256 * size.MiB, CPUs: 1})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != KO || r.Kind != KindNotReady || !strings.Contains(r.Failed[0], "within 2s") {
		t.Fatalf("got %s %s %q", r.Verdict, r.Kind, r.Failed)
	}
}

func TestTinyLimitIsKO(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "serve", 20*time.Second)
	spec := prepared(t, a, Spec{MemoryBytes: 16 * size.MiB, CPUs: 1})
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != KO || (r.Kind != KindOOMKilled && r.Kind != KindNotReady && r.Kind != KindExited) {
		t.Fatalf("got %s %s %q at 16Mi", r.Verdict, r.Kind, r.Failed)
	}
}

func TestDyingUnderLoadIsOOMKilled(t *testing.T) {
	needRoot(t)
	// Direct buffers past the heap size, so the cgroup, not the JVM, says no.
	a := fixtureApp(t, "oom", 20*time.Second, "-XX:MaxDirectMemorySize=4g")
	spec := prepared(t, a, Spec{MemoryBytes: 128 * size.MiB, CPUs: 1, Duration: 20 * time.Second})
	start := time.Now()
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != KO || r.Kind != KindOOMKilled {
		t.Fatalf("got %s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	if r.ExitSignal != "SIGKILL" || r.OutputTail == "" {
		t.Errorf("signal %q, tail %q", r.ExitSignal, r.OutputTail)
	}
	// The kernel's high-water mark, at the limit, not the last sample's.
	if r.Summary.CgroupPeak != r.MemoryPeakBytes || r.MemoryPeakBytes < 126*size.MiB {
		t.Errorf("summary cgroup peak %d, kernel's %d, limit %d", r.Summary.CgroupPeak, r.MemoryPeakBytes, 128*size.MiB)
	}
	if time.Since(start) > 15*time.Second {
		t.Errorf("the load went on after the app died: %s", time.Since(start))
	}
}

func TestCancelLeavesNothingBehind(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "serve", 30*time.Second)
	spec := prepared(t, a, Spec{MemoryBytes: 256 * size.MiB, CPUs: 1, Duration: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	d := deps(t)
	pids := make(chan int, 1)
	d.Sandbox = spySandbox{d.Sandbox, pids}
	var got error
	done := make(chan struct{})
	go func() {
		_, got = Run(ctx, spec, a, d)
		close(done)
	}()
	var pid int
	select {
	case pid = <-pids:
	case <-done:
		t.Fatalf("Run ended before the app started: %v", got)
	case <-time.After(30 * time.Second):
		t.Fatal("the app did not start within 30s")
	}
	time.Sleep(4 * time.Second) // ready, and under load
	if len(ownTrialGroups(t)) == 0 {
		t.Fatal("no trial cgroup while the trial runs")
	}
	t0 := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of cancel")
	}
	t.Logf("stopped %s after cancel", time.Since(t0))
	if got != context.Canceled {
		t.Errorf("error %v, want context.Canceled", got)
	}
	if !gone(pid) {
		t.Errorf("process %d still alive", pid)
	}
	if g := ownTrialGroups(t); len(g) != 0 {
		t.Errorf("cgroups left: %v", g)
	}
}

type spySandbox struct {
	Sandbox
	pids chan int
}

func (s spySandbox) Start(ctx context.Context, l Launch) (Process, error) {
	p, err := s.Sandbox.Start(ctx, l)
	if err == nil {
		s.pids <- p.Pid()
	}
	return p, err
}

func TestJvmfitOptionsAndNMT(t *testing.T) {
	needRoot(t)
	a := fixtureApp(t, "serve", 30*time.Second)
	spec := prepared(t, a, Spec{MemoryBytes: 192 * size.MiB, CPUs: 1, JVM: "jvmfit", NMT: true})
	if len(spec.JVMOptions) < 3 || spec.JVMOptions[len(spec.JVMOptions)-1] != nmtOption {
		t.Fatalf("options %q", spec.JVMOptions)
	}
	r, err := Run(context.Background(), spec, a, deps(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Line())
	if r.Verdict != OK {
		t.Fatalf("%s %s %q\n%s", r.Verdict, r.Kind, r.Failed, r.OutputTail)
	}
	heap, total := r.NMT["Java Heap"], r.NMT["Total"]
	if heap.Reserved <= 0 || total.Committed <= heap.Committed || len(r.Notes) != 0 {
		t.Fatalf("NMT %+v notes %q", r.NMT, r.Notes)
	}
	// NMT is also in the series (every 2 s and at the end; this run is
	// about 3 s long), and the working set on every sample.
	readings := 0
	for _, x := range r.Series {
		if x.NMT != nil {
			readings++
		}
	}
	if readings < 1 || r.Summary.NMTPeak["Total"] <= 0 || r.WorkingSetPeakBytes <= 0 || r.WorkingSetPeakBytes > r.MemoryPeakBytes {
		t.Errorf("%d NMT readings, peaks %v, working set peak %d of %d", readings, r.Summary.NMTPeak, r.WorkingSetPeakBytes, r.MemoryPeakBytes)
	}
	// The plan's -Xmx is what the JVM reports as its heap maximum.
	for _, o := range spec.JVMOptions {
		if v, ok := strings.CutPrefix(o, "-Xmx"); ok {
			want, err := size.Parse(v)
			if err == nil && r.HeapMaxBytes != want {
				t.Errorf("heap max %d, plan gave %s", r.HeapMaxBytes, o)
			}
		}
	}
}
