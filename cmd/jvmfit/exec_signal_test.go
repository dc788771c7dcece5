package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// A signal that comes while exec plans (here, while its `java -version`
// probe runs: a JDK without a release file) ends jvmfit with the signal's
// status, java never starts, and the probe, with what it started, is gone.
func TestExecSignalDuringPlanningStopsJava(t *testing.T) {
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			java := filepath.Join(dir, "jdk", "bin", "java")
			// The probe's sleep has an argument of its own, to be found
			// in /proc if it outlives jvmfit.
			nap := fmt.Sprintf("7.%03d%d", i, os.Getpid()%1000)
			script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = "-version" ]; then
	echo $$ > %[1]s/probe.pid
	sleep %[2]s
	echo 'openjdk version "17.0.9" 2023-10-17' >&2
	exit 0
fi
echo started > %[1]s/started
`, dir, nap)
			if err := os.MkdirAll(filepath.Dir(java), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { killNaps(nap) })
			cmd := clitest.Cmd(t, nil, "exec", "--java", java, "--memory", "256Mi", "--cpus", "1", "-cp", dir, "Main")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if !waitFor(5*time.Second, func() bool { _, err := os.Stat(filepath.Join(dir, "probe.pid")); return err == nil }) {
				cmd.Process.Kill()
				<-done
				t.Fatalf("the java -version probe never ran; stderr:\n%s", errb.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("jvmfit still running 15s after %v", sig)
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !(ws.Exited() && ws.ExitStatus() == 128+int(sig)) && !(ws.Signaled() && ws.Signal() == sig) {
				t.Errorf("jvmfit ended %v, want exit %d (128+%d) or death by %v; stderr:\n%s", ws, 128+int(sig), int(sig), sig, errb.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				t.Errorf("java started after %v during planning", sig)
			}
			if !waitFor(2*time.Second, func() bool { return len(naps(nap)) == 0 }) {
				t.Errorf("the probe outlived jvmfit: pids %v", naps(nap))
			}
		})
	}
}

func waitFor(d time.Duration, ok func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}

// naps are the live (not zombie) processes running `sleep arg`.
func naps(arg string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cl, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if !bytes.Equal(cl, []byte("sleep\x00"+arg+"\x00")) {
			continue
		}
		st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(st, ')'); i > 0 && strings.HasPrefix(string(st[i+1:]), " Z") {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// killNaps ends what this test's probes left (a failed run's).
func killNaps(arg string) {
	for _, pid := range naps(arg) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
