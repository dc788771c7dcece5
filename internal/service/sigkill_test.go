//go:build linux

package service

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// TestKindsHelperProcess is the jvmfit that TestSIGKILLAndARerunLeaveNoService
// kills: it starts one service of each kind http and command and waits.
// With JVMFIT_KINDS_HELPER=rerun it is the next run: one service, stopped.
func TestKindsHelperProcess(t *testing.T) {
	mode := os.Getenv("JVMFIT_KINDS_HELPER")
	if mode == "" {
		t.Skip("helper for TestSIGKILLAndARerunLeaveNoService")
	}
	exe, _ := os.Executable()
	svcs := []app.Service{
		{Name: "backend", Kind: KindHTTP, Memory: 64 * size.MiB, ResponseBytes: 10, Latency: "fixed 0s"},
		{Name: "auth", Kind: KindCommand, Memory: 64 * size.MiB, Command: []string{exe, "upstream", "--port=${port}"}, Ready: "port", Dir: os.TempDir()},
	}
	if mode == "rerun" {
		svcs = svcs[:1]
	}
	set, err := StartAll(context.Background(), svcs, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	if mode == "rerun" {
		set.Stop()
		fmt.Println("done")
		return
	}
	for _, in := range set.Instances() {
		fmt.Printf("ready %d %s\n", in.Pid(), in.(*procService).CgroupPath())
	}
	fmt.Println("all")
	time.Sleep(5 * time.Minute)
}

func TestSIGKILLAndARerunLeaveNoService(t *testing.T) {
	needRoot(t)
	cmd, out := startHelper(t, "TestKindsHelperProcess", "JVMFIT_KINDS_HELPER=first")
	var pids []int
	var groups []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "ready" {
			pid, _ := strconv.Atoi(f[1])
			pids, groups = append(pids, pid), append(groups, f[2])
		}
		if len(f) > 0 && (f[0] == "all" || f[0] == "error") {
			if f[0] == "error" {
				t.Fatal(sc.Text())
			}
			break
		}
	}
	if len(pids) != 2 || groups[0] == "" {
		t.Fatalf("helper gave pids %v groups %v", pids, groups)
	}
	for _, p := range pids {
		if zombie(p) {
			t.Fatalf("service %d not running before the kill: the check below would prove nothing", p)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The keeper kills what a dead jvmfit left; the next run sweeps the rest.
	deadline := time.Now().Add(15 * time.Second)
	for _, p := range pids {
		for !zombie(p) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if !zombie(p) {
			t.Errorf("service pid %d outlived jvmfit's SIGKILL by 15s", p)
		}
	}
	rerun := exec.Command(os.Args[0], "-test.run=^TestKindsHelperProcess$", "-test.v")
	rerun.Env = append(os.Environ(), "JVMFIT_KINDS_HELPER=rerun")
	if b, err := rerun.CombinedOutput(); err != nil || !strings.Contains(string(b), "done") {
		t.Fatalf("rerun: %v\n%s", err, b)
	}
	for _, g := range groups {
		for _, d := range []string{g, filepath.Dir(g)} {
			if _, err := os.Stat(d); !os.IsNotExist(err) {
				t.Errorf("cgroup %s left after the SIGKILL and a rerun", d)
			}
		}
	}
}
