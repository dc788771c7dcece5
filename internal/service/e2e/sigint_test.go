//go:build linux

package e2e

import (
	"bufio"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGINT to `jvmfit run` mid-trial: exit 130, and the database's server
// and data directory are gone.
func TestSIGINTDuringATrialLeavesNoDatabase(t *testing.T) {
	appYAML := prerequisites(t)
	dir := t.TempDir()
	cmd := exec.Command(jvmfit(t), "run", "--app", appYAML, "--db", filepath.Join(dir, "run.db"),
		"--memory", "512Mi", "--cpus", "1", "--warmup", "1s", "--duration", "60s")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := cmd.Process.Pid
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		signalled := false
		for sc.Scan() {
			l := lastProgress(sc.Text())
			if strings.HasPrefix(l, "measure") && !signalled {
				signalled = true
				close(ready)
			}
			if !strings.HasPrefix(l, "warmup") && !strings.HasPrefix(l, "measure") {
				t.Log(l)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(3 * time.Minute):
		t.Fatal("the trial did not reach its measured phase in 3 minutes")
	}
	if len(leftovers(pid)) == 0 {
		t.Fatal("no database running during the trial: the check below would prove nothing")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("jvmfit did not exit within 30s of SIGINT")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130", err)
	}
	if left := leftovers(pid); len(left) > 0 {
		t.Errorf("left behind after SIGINT: %v", left)
	}
}
