//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// helperEnv switches the test binary into a tiny jvmfit stand-in: it
// starts a sandbox the way the runner does (defer Stop, ctx from
// signal.NotifyContext), reports what it made, and waits for a signal.
const helperEnv = "JVMFIT_SANDBOX_HELPER"

func helperMain() int {
	if os.Getenv(helperEnv) == "fill" {
		return fillMain()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	argv := []string{"sh", "-c", `trap "" TERM; sleep 60 & setsid sleep 60 & echo started; wait`}
	want := 3 // the shell tree: sh and two sleeps
	switch os.Getenv(helperEnv) {
	case "single":
		argv, want = []string{"sleep", "60"}, 1
	case "wrapper":
		// A wrapper script that starts the JVM as its child, as many
		// images' entrypoints do; the JVM stays until killed.
		argv = []string{"sh", "-c", os.Getenv("JVMFIT_HELPER_JAVA") + ` "$0" & wait`, os.Getenv("JVMFIT_HELPER_IDLE")}
		want = 2
	}
	p, err := Start(ctx, Spec{Name: "helper", Argv: argv, Stdout: os.Stderr, Dir: os.TempDir(),
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	defer p.Stop(500 * time.Millisecond)
	// Not len(argv)-1: that is 2 for the tree, which let a slow machine
	// (the cgroup v2 guest under emulation) report before the second sleep.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		pids, _ := p.group.Procs()
		if len(pids) >= want || time.Now().After(deadline) {
			fmt.Println("procs", strings.Trim(fmt.Sprint(pids), "[]"))
			break
		}
	}
	for _, d := range p.group.Paths() {
		fmt.Println("path", d)
	}
	fmt.Println("ready")
	<-ctx.Done()
	return 0
}

// runHelper starts the stand-in and returns it with the pids and paths it
// reported once ready.
func runHelper(t *testing.T, mode string, env ...string) (*exec.Cmd, []int, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	var pids []int
	var paths []string
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("helper ended before it was ready")
			}
			k, v, _ := strings.Cut(l, " ")
			switch k {
			case "procs":
				for _, f := range strings.Fields(v) {
					n, _ := strconv.Atoi(f)
					pids = append(pids, n)
				}
			case "path":
				paths = append(paths, v)
			case "error":
				t.Fatal(v)
			case "ready":
				go func() {
					for range lines {
					}
				}()
				return cmd, pids, paths
			}
		case <-timeout:
			t.Fatal("helper not ready after 20s")
		}
	}
}

// TestSignalToJvmfitLeavesNothing: SIGINT or SIGTERM to the jvmfit process
// stops the sandbox, even a tree that ignores SIGTERM, and removes its
// cgroup and the jvmfit-<pid> directories.
func TestSignalToJvmfitLeavesNothing(t *testing.T) {
	needCgroups(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sigName(sig), func(t *testing.T) {
			cmd, pids, paths := runHelper(t, "tree")
			if len(pids) < 3 || len(paths) == 0 {
				t.Fatalf("helper reported procs %v paths %v", pids, paths)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("helper exited with %v", err)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("helper did not exit within 15s of the signal")
			}
			bases := []string{}
			for _, p := range paths {
				bases = append(bases, filepath.Dir(p))
			}
			assertGone(t, pids, append(paths, bases...))
		})
	}
}

// TestCrashedJvmfitIsSwept: if jvmfit is SIGKILLed its app dies with it
// (Pdeathsig) and the next jvmfit's Sweep removes the orphaned group.
func TestCrashedJvmfitIsSwept(t *testing.T) {
	needCgroups(t)
	cmd, pids, paths := runHelper(t, "single")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	t.Cleanup(func() {
		for _, p := range paths {
			_ = syscall.Rmdir(p)
			_ = syscall.Rmdir(filepath.Dir(p))
		}
	})
	assertGone(t, pids, nil)
	// The crashed run's keeper (keeper.go) may be removing its groups as
	// the sweep walks them: between the two, none may be left.
	m, err := cgroup.NewManager(cgroupRoot)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := m.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) < len(paths) {
		t.Errorf("swept %v", removed)
	}
	assertGone(t, nil, paths)
}
