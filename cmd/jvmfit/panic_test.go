package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/sandbox"
)

const panicHelperEnv = "JVMFIT_PANIC_HELPER"

// panicHelper runs, through main's run, a command that starts a sandboxed
// tree (a shell and its sleep, as a wrapper script and its JVM), says what
// it made, and panics with the tree alive: no deferred Stop runs.
func panicHelper() int {
	root := &cobra.Command{Use: "jvmfit", SilenceUsage: true}
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(cmd *cobra.Command, _ []string) error {
		p, err := sandbox.Start(cmd.Context(), sandbox.Spec{Name: "boom",
			Argv:   []string{"sh", "-c", "sleep 300 & echo $!; wait"},
			Stdout: os.Stdout, Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
		if err != nil {
			return err
		}
		for _, d := range []string{p.CgroupPath()} {
			fmt.Println("path", d)
		}
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(p.CgroupPath() + "/cgroup.procs"); len(strings.Fields(string(b))) >= 2 {
				break
			}
		}
		fmt.Println("ready")
		explode()
		return nil
	}})
	root.SetArgs([]string{"boom"})
	return run(root)
}

//go:noinline
func explode() { panic("the command's bug") }

// TestPanicRunsCleanup: a panic in a command kills and removes what the
// command started (internal/cleanup's hooks: trial cgroups, services,
// containers) before jvmfit dies, then prints the panic and its stack and
// exits non-zero. Before, the runtime printed the trace and exited at once,
// leaving the app's children and their cgroups.
func TestPanicRunsCleanup(t *testing.T) {
	prereq.Root(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), panicHelperEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	var sleep int
	var path string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		l := sc.Text()
		if k, v, ok := strings.Cut(l, " "); ok && k == "path" {
			path = v
		} else if n, err := strconv.Atoi(l); err == nil {
			sleep = n
		}
		if l == "ready" {
			break
		}
	}
	if sleep == 0 || path == "" {
		t.Fatalf("the helper did not report its tree (sleep %d, cgroup %q):\n%s", sleep, path, stderr.String())
	}
	t.Cleanup(func() { // a failing run's leftovers
		syscall.Kill(sleep, syscall.SIGKILL)
	})
	// Not read to EOF: the sleep holds the pipe's other end.
	err = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || ws.Signaled() || ws.ExitStatus() == 0 {
		t.Errorf("jvmfit ended with %v, want a non-zero exit", cmd.ProcessState)
	}
	msg := stderr.String()
	for _, want := range []string{"panic: the command's bug", "goroutine ", "jvmfit.explode("} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr lacks %q:\n%s", want, msg)
		}
	}
	for end := time.Now().Add(3 * time.Second); alive(sleep) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(sleep) {
		t.Errorf("the command's sleep %d outlived the panic", sleep)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the command's cgroup %s is left", path)
	}
}

// alive: a process that exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}
