//go:build linux

package kube

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// findJava takes the pod's JVM (the lowest java pid, not the agent, not
// the pause process) from a procfs.
func TestFindJava(t *testing.T) {
	proc := t.TempDir()
	for pid, comm := range map[int]string{1: "pause", 7: "java", 12: "java", 30: "jvmfit", 31: "java"} {
		os.MkdirAll(filepath.Join(proc, strconv.Itoa(pid)), 0o755)
		os.WriteFile(filepath.Join(proc, strconv.Itoa(pid), "comm"), []byte(comm+"\n"), 0o644)
	}
	os.MkdirAll(filepath.Join(proc, "self"), 0o755)
	if got := findJava(proc, 99); got != 7 {
		t.Errorf("findJava = %d, want 7", got)
	}
	if got := findJava(proc, 7); got != 12 {
		t.Errorf("findJava excluding itself = %d, want 12", got)
	}
	if got := findJava(t.TempDir(), 1); got != 0 {
		t.Errorf("an empty pod gave %d", got)
	}
}

// podProc is a procfs that shows only pid (a symlink to the real one): the
// pod's shared process namespace, on a machine where other JVMs run too.
func podProc(t *testing.T, pid int) string {
	proc := t.TempDir()
	if err := os.Symlink(filepath.Join("/proc", strconv.Itoa(pid)), filepath.Join(proc, strconv.Itoa(pid))); err != nil {
		t.Fatal(err)
	}
	return proc
}

// Stop ends a process the agent did not start, and Done sees it go.
func TestAttachedStop(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	a := newAttached(podProc(t, cmd.Process.Pid), cmd.Process.Pid)
	select {
	case <-a.Done():
		t.Fatal("a live process reads as done")
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := a.MemoryPeak(); err != nil {
		t.Errorf("the process's cgroup through /proc/PID/root: %v", err)
	}
	t0 := time.Now()
	a.Stop(5 * time.Second)
	select {
	case <-a.Done():
	default:
		t.Fatal("Stop returned with the process alive")
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("SIGTERM took %s: sleep dies on it at once", d)
	}
}

// The agent end to end against a real JVM standing in for the app
// container: it finds the JVM, waits for its readiness on localhost,
// drives filecache's scenario, samples it, stops it, and writes the
// result to its log and termination message.
func TestAgentAgainstARealJVM(t *testing.T) {
	jar, _ := filepath.Abs("../../../workloads/filecache/target/filecache.jar")
	scenario, _ := filepath.Abs("../../../workloads/filecache/scenario.yaml")
	prereq.Built(t, jar)
	java := "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	prereq.Java(t, java)
	port := freePort(t)
	jvm := exec.Command(java, "-Xmx96m", "-jar", jar, "--server.port="+strconv.Itoa(port))
	jvm.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	jvm.Dir = t.TempDir()
	if err := jvm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-jvm.Process.Pid, syscall.SIGKILL); jvm.Wait() })

	b, err := os.ReadFile(scenario)
	if err != nil {
		t.Fatal(err)
	}
	spec := trial.Spec{App: "app.yaml", AppName: "filecache", Java: java, JDKVersion: 17, JVM: "default",
		MemoryBytes: 512 * mi, CPUs: 1, Rate: 50, Warmup: time.Second, Duration: 3 * time.Second, SLO: "success>=0.99"}
	task := Task{Spec: spec, App: TaskApp{Name: "filecache", Port: port, Ready: "http://127.0.0.1:${port}/actuator/health",
		ReadyTimeout: 90 * time.Second, Scenario: string(b), Vars: map[string]string{"files": "20", "workers": "4"}, SLO: "success>=0.99"}}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var progress strings.Builder
	r, err := runAgent(ctx, task, &progress, podProc(t, jvm.Process.Pid))
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if r.Verdict != trial.OK || r.StartSeconds <= 0 || r.Load == nil || r.Load.Success < 0.99 {
		t.Fatalf("verdict %s %s %v, start %.1fs\n%s", r.Verdict, r.Kind, r.Failed, r.StartSeconds, progress.String())
	}
	if len(r.Series) == 0 || r.Summary.RSSPeak < 32*mi || r.MemoryPeakBytes < 32*mi {
		t.Errorf("samples %d, RSS peak %d, cgroup peak %d: the probe did not see the JVM", len(r.Series), r.Summary.RSSPeak, r.MemoryPeakBytes)
	}
	t.Logf("agent: %s, ready in %.1fs, %d samples, RSS peak %d MiB, cgroup peak %d MiB, %.0f req/s",
		r.Verdict, r.StartSeconds, len(r.Series), r.Summary.RSSPeak/mi, r.MemoryPeakBytes/mi, r.Load.Throughput)
	heap := false
	for _, s := range r.Series {
		heap = heap || s.HeapCommitted > 0
	}
	if !heap {
		t.Error("no heap figures: the hsperfdata under /proc/PID/root was not read")
	}
	select {
	case <-time.After(10 * time.Second):
		t.Error("the agent left the JVM running")
	case <-exited(jvm):
	}

	// What the pod hands back: the log line and the termination message.
	var log strings.Builder
	if err := WriteLogLine(&log, r); err != nil {
		t.Fatal(err)
	}
	full, err := ReadLogLine(strings.NewReader(log.String()))
	if err != nil || len(full.Series) != len(r.Series) {
		t.Errorf("log line: %v", err)
	}
}

// exited is closed once cmd has exited (a zombie until Cleanup reaps it).
func exited(cmd *exec.Cmd) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)); err != nil || strings.Contains(string(b), ") Z") {
				close(ch)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return ch
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
