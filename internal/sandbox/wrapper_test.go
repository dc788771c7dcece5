//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// TestWrapperStartedJVMIsKilled: jvmfit killed outright (SIGKILL, the
// OOM killer) while its app is a wrapper script whose child is the JVM.
// Pdeathsig reaches only jvmfit's direct child, the script; the JVM lived
// on, in a cgroup the next run's sweep would not touch since a process
// was in it. Now the trial groups are killed and removed when jvmfit's
// life ends, however it ends.
func TestWrapperStartedJVMIsKilled(t *testing.T) {
	needCgroups(t)
	java := "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	needJava(t, java)
	idle, err := filepath.Abs("testdata/idle/Idle.java")
	if err != nil {
		t.Fatal(err)
	}
	cmd, pids, paths := runHelper(t, "wrapper", "JVMFIT_HELPER_JAVA="+java, "JVMFIT_HELPER_IDLE="+idle)
	jvm := 0
	for _, pid := range pids {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); strings.TrimSpace(string(b)) == "java" {
			jvm = pid
		}
	}
	if jvm == 0 {
		t.Fatalf("no java among the trial's processes %v", pids)
	}
	t.Cleanup(func() { // what a failing run leaves
		syscall.Kill(jvm, syscall.SIGKILL)
		time.Sleep(100 * time.Millisecond)
		for _, p := range paths {
			syscall.Rmdir(p)
			syscall.Rmdir(filepath.Dir(p))
		}
	})
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(jvm, 0) == nil && !isZombie(jvm) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(jvm, 0) == nil && !isZombie(jvm) {
		t.Fatalf("the wrapper's JVM %d is alive 10s after jvmfit was killed", jvm)
	}
	for _, p := range paths {
		for _, err := os.Stat(p); err == nil && time.Now().Before(deadline); _, err = os.Stat(p) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	assertGone(t, nil, paths)
}

// A wrapper that exits and leaves its child running: the child is
// reparented to jvmfit (PR_SET_CHILD_SUBREAPER), not to init, killed with
// the trial's group at Stop, and reaped, so no zombie stays in jvmfit's
// process table for the rest of a long run.
func TestOrphanIsAdoptedAndReaped(t *testing.T) {
	needCgroups(t)
	var out syncBuffer
	p := start(t, context.Background(), Spec{Name: "orphan", Stdout: &out,
		Argv:   []string{"sh", "-c", `sleep 60 & echo $!`},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	waitDone(t, p, 10*time.Second)
	orphan, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatalf("the wrapper said %q", out.String())
	}
	if _, ppid, ok := parentOf(orphan); !ok || ppid != os.Getpid() {
		t.Errorf("the orphan %d has parent %d, want jvmfit's %d", orphan, ppid, os.Getpid())
	}
	paths := p.group.Paths()
	p.Stop(0)
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(orphan)); err != nil {
			break
		}
	}
	if state, _, ok := parentOf(orphan); ok {
		t.Errorf("the orphan %d is still in the process table (state %c) after Stop", orphan, state)
	}
	assertGone(t, nil, paths)
}

// parentOf reads a process's state and parent pid.
func parentOf(pid int) (state byte, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ppid, err = strconv.Atoi(f[1])
	return f[0][0], ppid, err == nil
}
