//go:build linux

package service

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// TestHelperProcess is the child of TestSIGINTLeavesNothing: it behaves like
// jvmfit (SIGINT cancels the context, deferred Stop) with one service.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("JVMFIT_SERVICE_HELPER") != "1" {
		t.Skip("helper for TestSIGINTLeavesNothing")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	in, err := Start(ctx, app.Service{Name: "db", Kind: KindPostgres, Memory: 128 * size.MiB, CPUs: 1},
		Options{NoLimits: os.Geteuid() != 0})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	defer in.Stop()
	fmt.Printf("ready %d %s\n", in.Pid(), in.(*postgres).DataDir())
	<-ctx.Done()
}

func TestSIGINTLeavesNothing(t *testing.T) {
	needPostgres(t)
	cmd, out := startHelper(t, "TestHelperProcess", "JVMFIT_SERVICE_HELPER=1")
	child := cmd.Process.Pid
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var pid int
	var dir string
	timeout := time.After(90 * time.Second)
	for pid == 0 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("helper ended before its service was ready")
			}
			if f := strings.Fields(l); len(f) == 3 && f[0] == "ready" {
				pid, _ = strconv.Atoi(f[1])
				dir = f[2]
			} else if strings.HasPrefix(l, "error") {
				t.Fatal(l)
			}
		case <-timeout:
			t.Fatal("helper's service not ready in 90s")
		}
	}
	if zombie(pid) {
		t.Fatalf("server %d not running", pid)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range lines {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("helper did not exit within 30s of SIGINT")
	}
	if !zombie(pid) {
		t.Errorf("server %d still running after SIGINT", pid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("data directory %s left after SIGINT", dir)
	}
	if pids, dirs := leftoversOf(t, fmt.Sprintf("%s%d-", dirPrefix, child)); len(pids)+len(dirs) > 0 {
		t.Errorf("left behind: pids %v, dirs %v", pids, dirs)
	}
}

func TestSweepStaleRemovesDeadJvmfitsDirectoriesOnly(t *testing.T) {
	tmp := t.TempDir()
	// A pid far above pid_max is never alive.
	dead := tmp + "/" + dirPrefix + "999999999-abc"
	mine := tmp + "/" + dirPrefix + strconv.Itoa(os.Getpid()) + "-abc"
	other := tmp + "/jvmfit-trial-123"
	for _, d := range []string{dead + "/data", mine, other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removed := SweepStale(tmp)
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed", d)
		}
	}
}
