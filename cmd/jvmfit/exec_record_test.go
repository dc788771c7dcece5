package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/size"
)

// recordSrc keeps 24 MiB live through full GCs, then idles; it prints the
// signals it handles (SIGHUP, SIGINT, SIGUSR1, SIGUSR2; SIGQUIT is the
// JVM's thread dump), and on SIGTERM its shutdown hook prints and halts
// with 42, a status only java gives.
const recordSrc = `public class Rec {
  static java.util.List<byte[]> keep = new java.util.ArrayList<>();
  public static void main(String[] a) throws Exception {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("hook ran"); System.out.flush(); Runtime.getRuntime().halt(42); }));
    for (String n : new String[]{"HUP", "INT", "USR1", "USR2"})
      sun.misc.Signal.handle(new sun.misc.Signal(n), s -> { System.out.println("got " + s.getName()); System.out.flush(); });
    for (int i = 0; i < 24; i++) keep.add(new byte[1 << 20]);
    for (int i = 0; i < 3; i++) { System.gc(); Thread.sleep(200); }
    System.out.println("ready " + ProcessHandle.current().pid());
    System.out.flush();
    Thread.sleep(120000);
  }
}`

// recordJVM starts `jvmfit exec --record-profile FILE` in a real 384 MiB,
// 1-CPU cgroup on a compiled Rec, and returns the sandboxed jvmfit, java's
// pid (its child) and the file.
func recordJVM(t *testing.T, ctx context.Context) (*sandbox.Process, int, string, *syncBuffer, *syncBuffer) {
	t.Helper()
	prereq.Root(t)
	clitest.NeedJava(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Rec.java"), []byte(recordSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	javac := filepath.Join(filepath.Dir(clitest.Java17), "javac")
	if out, err := exec.Command(javac, "-d", dir, filepath.Join(dir, "Rec.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v %s", err, out)
	}
	file := filepath.Join(dir, "rec.json")
	out, errb := &syncBuffer{}, &syncBuffer{}
	p, err := sandbox.Start(ctx, sandbox.Spec{Name: "exec-record",
		Argv:   []string{clitest.Bin(), "exec", "--record-profile", file, "--record-every", "1s", "--", clitest.Java17, "-cp", dir, "Rec"},
		Env:    []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")},
		Limits: cgroup.Spec{MemoryBytes: 384 * size.MiB, CPUs: 1}, Stdout: out, Stderr: errb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(5 * time.Second) })
	var java int
	if !waitFor(60*time.Second, func() bool {
		_, pid, ok := strings.Cut(out.String(), "ready ")
		if ok {
			java, _ = strconv.Atoi(strings.TrimSpace(strings.SplitN(pid, "\n", 2)[0]))
		}
		return java > 0
	}) {
		t.Fatalf("java never ready: %s %s", out.String(), errb.String())
	}
	if ppid := parentOf(java); ppid != p.Pid() {
		t.Fatalf("java %d has parent %d, not jvmfit %d: jvmfit did not stay its parent", java, ppid, p.Pid())
	}
	return p, java, file, out, errb
}

// syncBuffer is java's output as the test reads it while java writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	n, _ := strconv.Atoi(f[1])
	return n
}

// hsperfPeaks reads java's hsperf file directly, as the recorder's other
// measure: the peaks of loaded classes, metaspace and class space used,
// and old-generation used after the last full GC.
type hsperfPeaks struct{ classes, meta, class, live, oldGCs int64 }

func (h *hsperfPeaks) read(pid int) {
	s, err := hsperf.ReadFile(hsperf.PathFor(pid))
	if err != nil {
		return
	}
	j := s.JVM()
	h.classes, h.meta, h.class = max(h.classes, j.ClassesLoaded), max(h.meta, j.MetaspaceUsed), max(h.class, j.ClassSpaceUsed)
	if j.OldGCs > 0 {
		h.live, h.oldGCs = max(h.live, j.Old.Used), j.OldGCs
	}
}

// Under jvmfit exec --record-profile, in a real cgroup: java is jvmfit's
// child, SIGTERM to jvmfit reaches java (its hook runs), jvmfit ends with
// java's own status, and the file's peaks are those hsperf gives read
// directly.
func TestExecRecordProfileSIGTERMAndPeaks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p, java, file, out, errb := recordJVM(t, ctx)
	var direct hsperfPeaks
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		direct.read(java)
	}
	for sig, says := range map[syscall.Signal]string{syscall.SIGHUP: "got HUP", syscall.SIGINT: "got INT",
		syscall.SIGUSR1: "got USR1", syscall.SIGUSR2: "got USR2", syscall.SIGQUIT: "Full thread dump"} {
		if err := syscall.Kill(p.Pid(), sig); err != nil {
			t.Fatal(err)
		}
		if !waitFor(10*time.Second, func() bool { return strings.Contains(out.String(), says) }) {
			t.Errorf("%v to jvmfit did not reach java (no %q on its stdout)", sig, says)
		}
	}
	if !alive(java) {
		t.Fatal("java ended before SIGTERM")
	}
	if err := syscall.Kill(p.Pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(20 * time.Second):
		t.Fatalf("jvmfit still running 20s after SIGTERM: %s", errb.String())
	}
	if e := p.Exit(); e.Code != 42 {
		t.Errorf("jvmfit ended %s, want java's status 42; stderr: %s", e, errb.String())
	}
	if !strings.Contains(out.String(), "hook ran") {
		t.Errorf("java's shutdown hook did not run: SIGTERM did not reach it; stdout %q", out.String())
	}
	if s := errb.String(); strings.Contains(s, "jvmfit: java ended") {
		t.Errorf("jvmfit printed a line of its own for java's status: %s", s)
	}
	prof, err := plan.LoadProfile(file)
	if err != nil {
		t.Fatal(err)
	}
	if direct.classes == 0 || direct.oldGCs < 3 {
		t.Fatalf("hsperf read directly saw %+v: no JVM figures to compare", direct)
	}
	near := func(name string, got, want int64, tol float64) {
		if d := float64(got - want); d > tol*float64(want) || -d > tol*float64(want) {
			t.Errorf("%s: file %d, hsperf read directly %d (more than %.0f%% apart)", name, got, want, tol*100)
		}
	}
	near("loadedClasses", prof.LoadedClasses, direct.classes, 0.02)
	near("metaspaceUsedBytes", prof.MetaspaceUsedBytes, direct.meta, 0.02)
	near("classSpaceUsedBytes", prof.ClassSpaceUsedBytes, direct.class, 0.02)
	near("liveHeapBytes", prof.LiveHeapBytes, direct.live, 0.02)
	if prof.LiveHeapBytes < 24*size.MiB {
		t.Errorf("liveHeapBytes %d is below the 24 MiB Rec keeps", prof.LiveHeapBytes)
	}
	if prof.App != "Rec" || prof.MemoryLimitBytes != 384*size.MiB || prof.JDKVersion != 17 || prof.PeakThreads == 0 {
		t.Errorf("profile identity: app %q limit %d jdk %d threads %d", prof.App, prof.MemoryLimitBytes, prof.JDKVersion, prof.PeakThreads)
	}
}

// SIGKILL of jvmfit takes java with it.
func TestExecRecordProfileSIGKILLTakesJava(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p, java, _, _, _ := recordJVM(t, ctx)
	if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if !waitFor(5*time.Second, func() bool { return !alive(java) }) {
		t.Fatalf("java %d outlived jvmfit's SIGKILL", java)
	}
}

// A --profile that is missing, corrupt or another app's, where exec
// records, is one warning line and a start without a profile; the run's
// recording then replaces it.
func TestExecRecordProfileBadFileWarnsAndStarts(t *testing.T) {
	clitest.NeedJava(t)
	prog := writeProg(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"missing": "",
		"corrupt": `{"version": 1, "app": "Prog", "liveHeap`,
		"foreign": `{"version": 1, "app": "orders", "liveHeapBytes": 900000000}`,
	} {
		file := filepath.Join(dir, name+".json")
		if body != "" {
			os.WriteFile(file, []byte(body), 0o644)
		}
		out, errs, code := clitest.Run(t, nil, "exec", "--memory", "256Mi", "--cpus", "1", "--profile", file, "--record-profile", file, "--", clitest.Java17, prog, "5")
		var warns []string
		for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
			if strings.HasPrefix(l, "jvmfit: ") {
				warns = append(warns, l)
			}
		}
		if code != 5 || !strings.Contains(out, "heap ") {
			t.Errorf("%s: exit %d, want java's 5; stdout %q stderr %q", name, code, out, errs)
		}
		if len(warns) != 1 || !strings.HasPrefix(warns[0], "jvmfit: warning: --profile: ") || !strings.Contains(warns[0], "planning without a profile") {
			t.Errorf("%s: want one warning line, got %q", name, warns)
		}
		if p, err := plan.LoadProfile(file); err != nil || p.App != "Prog" || p.LiveHeapBytes == 900000000 {
			t.Errorf("%s: the recording did not replace the file: %+v %v", name, p, err)
		}
	}
	// With --strict the same is refused, and java does not start.
	file := filepath.Join(dir, "corrupt.json")
	os.WriteFile(file, []byte("{"), 0o644)
	out, errs, code := clitest.Run(t, nil, "exec", "--strict", "--memory", "256Mi", "--cpus", "1", "--profile", file, "--record-profile", file, "--", clitest.Java17, prog, "5")
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("--strict: exit %d stdout %q stderr %q; want exit 2, one line", code, out, errs)
	}
	// Bad --record-profile flags: one line, exit 2.
	for _, args := range [][]string{
		{"--record-profile", filepath.Join(dir, "no", "such", "p.json")},
		{"--record-profile", dir},
		{"--record-profile", file, "--record-every", "10ms"},
	} {
		args = append(append([]string{"exec", "--memory", "256Mi", "--cpus", "1"}, args...), "--", clitest.Java17, prog, "5")
		out, errs, code := clitest.Run(t, nil, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d stdout %q stderr %q; want exit 2, one line", args, code, out, errs)
		}
	}
}
