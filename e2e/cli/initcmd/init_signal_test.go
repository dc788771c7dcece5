package initcmd

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

// SIGINT during init's check stops the app and removes its cgroup, exits
// 130, and leaves the files written before the check.
func TestInitSIGINTDuringCheckLeavesNothingBehind(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t)
	src := filepath.Join("..", "..", "..", "workloads", "greet-plain", "target", "greet-plain.jar")
	prereq.Built(t, src)
	dir := t.TempDir()
	// The jar's name marks the app's java command line.
	marker := "greet-plain-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	jar := filepath.Join(dir, marker+".jar")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(jar, b, 0o644)
	cmd := clitest.Cmd(t, nil, "init", "--jar", jar, "--out", filepath.Join(dir, "sizing"), "--java", clitest.Java17)
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	loading := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Split(clitest.ScanCRLF)
		for sc.Scan() {
			if strings.HasPrefix(strings.TrimLeft(sc.Text(), "\x1b[K"), "warmup") {
				select {
				case loading <- true:
				default:
				}
			}
		}
	}()
	select {
	case <-loading:
	case <-time.After(60 * time.Second):
		t.Fatal("the check did not start its load in 60s")
	}
	if pids := clitest.PidsWith(marker); len(pids) != 1 {
		t.Fatalf("want one java running %s, found %v", marker, pids)
	}
	groups := filepath.Join(clitest.OwnMemoryCgroup(t), "jvmfit-"+strconv.Itoa(cmd.Process.Pid))
	if _, err := os.Stat(groups); err != nil {
		t.Fatalf("no trial cgroup at %s while checking", groups)
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("jvmfit did not exit within 15s of SIGINT")
	}
	if c := cmd.ProcessState.ExitCode(); c != 130 {
		t.Errorf("exit %d, want 130", c)
	}
	if left := clitest.PidsWith(marker); len(left) != 0 {
		t.Errorf("java still running: %v", left)
	}
	if _, err := os.Stat(groups); err == nil {
		t.Errorf("cgroup %s left", groups)
	}
	if _, err := os.Stat(filepath.Join(dir, "sizing", "app.yaml")); err != nil {
		t.Errorf("app.yaml: %v", err)
	}
}
