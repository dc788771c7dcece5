package run

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// TestSIGHUPRunsCleanup: a dropped SSH session sends jvmfit SIGHUP. Go's
// default for it is to die on the spot, before any deferred call, which
// left the trial's cgroups (and a service or container, had the app one)
// behind; jvmfit stops as after SIGTERM instead: exit 130, the app
// stopped, its cgroups gone.
func TestSIGHUPRunsCleanup(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "30s")
	marker := "-Djvmfit.hup=" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cmd := clitest.Cmd(t, nil, "run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17,
		"--db", filepath.Join(t.TempDir(), "t.db"), "--duration", "60s", "--jvm", marker)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Split(clitest.ScanCRLF)
		for sc.Scan() {
			if strings.HasPrefix(strings.TrimLeft(sc.Text(), "\x1b[K"), "measure") {
				select {
				case ready <- true:
				default:
				}
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatal("the trial did not reach its measured phase in 60s")
	}
	if pids := clitest.PidsWith(marker); len(pids) != 1 {
		t.Fatalf("want one java process with %s, found %v", marker, pids)
	}
	groups := filepath.Join(clitest.OwnMemoryCgroup(t), "jvmfit-"+strconv.Itoa(cmd.Process.Pid))
	if _, err := os.Stat(groups); err != nil {
		t.Fatalf("no trial cgroup at %s while running", groups)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("jvmfit did not exit within 15s of SIGHUP")
	}
	if ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() || ws.ExitStatus() != 130 {
		t.Errorf("jvmfit ended with %v, want exit 130 as after SIGTERM", cmd.ProcessState)
	}
	for end := time.Now().Add(3 * time.Second); len(clitest.PidsWith(marker)) > 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if left := clitest.PidsWith(marker); len(left) != 0 {
		t.Errorf("java still running: %v", left)
	}
	if _, err := os.Stat(groups); err == nil {
		t.Errorf("the trial's cgroups are left in %s", groups)
	}
}
