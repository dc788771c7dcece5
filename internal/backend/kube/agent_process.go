//go:build linux

package kube

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// attachSandbox is the agent's trial.Sandbox: the app container already
// runs (Kubernetes started it with the trial's limits), so Start finds its
// JVM in the pod's shared process namespace instead of starting one.
type attachSandbox struct {
	proc string        // procfs root, "/proc"; tests point it elsewhere
	wait time.Duration // how long to look for the JVM
}

func (s attachSandbox) Start(ctx context.Context, _ trial.Launch) (trial.Process, error) {
	deadline := time.Now().Add(s.wait)
	for {
		if pid := findJava(s.proc, os.Getpid()); pid > 0 {
			return newAttached(s.proc, pid), nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no java process appeared in the pod in %s: does the app container run a JVM? (the pod needs shareProcessNamespace)", s.wait)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// findJava is the lowest pid (the entrypoint's JVM, not a tool it forked)
// whose command name is java, other than self.
func findJava(proc string, self int) int {
	ents, _ := os.ReadDir(proc)
	best := 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		comm, err := os.ReadFile(filepath.Join(proc, e.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "java" {
			continue
		}
		if best == 0 || pid < best {
			best = pid
		}
	}
	return best
}

// attached is the app container's JVM as a trial.Process.
type attached struct {
	proc   string
	pid    int
	start  string // its start time in /proc/PID/stat: a reused pid is another process
	done   chan struct{}
	memDir string // its memory cgroup as its own mount namespace shows it, "" if unreadable
	cpuDir string // its cpu accounting group (v1 cpuacct; the same as memDir on v2)
}

func newAttached(proc string, pid int) *attached {
	a := &attached{proc: proc, pid: pid, start: startTime(proc, pid), done: make(chan struct{})}
	// The app's cgroup as the app container mounts it: the agent's own
	// /sys/fs/cgroup is its own container's group.
	root := filepath.Join(proc, strconv.Itoa(pid), "root")
	if h, err := cgroup.ReadHierarchyOf(root, strconv.Itoa(pid)); err == nil {
		a.memDir, a.cpuDir = h.Dir("memory"), h.Dir("cpuacct")
	}
	go a.watch()
	return a
}

func startTime(proc string, pid int) string {
	b, err := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	// Field 22 (starttime), counted after the command's closing paren.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		if f := strings.Fields(s[i+1:]); len(f) > 19 {
			return f[19]
		}
	}
	return ""
}

func (a *attached) alive() bool {
	st := startTime(a.proc, a.pid)
	if st == "" || st != a.start {
		return false
	}
	// A zombie has exited: not a non-child we could reap, but dead.
	b, _ := os.ReadFile(filepath.Join(a.proc, strconv.Itoa(a.pid), "stat"))
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

func (a *attached) watch() {
	for a.alive() {
		time.Sleep(100 * time.Millisecond)
	}
	close(a.done)
}

func (a *attached) Pid() int              { return a.pid }
func (a *attached) Done() <-chan struct{} { return a.done }

// MemoryPeak is the app cgroup's high-water mark (v1 max_usage_in_bytes,
// v2 memory.peak).
func (a *attached) MemoryPeak() (int64, error) {
	if a.memDir == "" {
		return 0, fmt.Errorf("the app's cgroup is not readable through /proc/%d/root", a.pid)
	}
	return readCgroupInt(a.memDir, "memory.max_usage_in_bytes", "memory.peak")
}

// Stop ends the JVM as the container's own stop would: SIGTERM, then
// SIGKILL after grace. How it ended is Kubernetes' to say (the runner
// reads the container's status); the agent knows only that it ended.
func (a *attached) Stop(grace time.Duration) trial.Exit {
	select {
	case <-a.done:
		return trial.Exit{Code: -1}
	default:
	}
	syscall.Kill(a.pid, syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(grace):
		syscall.Kill(a.pid, syscall.SIGKILL)
		select {
		case <-a.done:
		case <-time.After(5 * time.Second):
		}
	}
	return trial.Exit{Code: -1}
}

// Stalled never closes: stall detection reads a group jvmfit created.
func (a *attached) Stalled() <-chan struct{} { return nil }
func (a *attached) Stall() string            { return "" }

// readCgroupInt reads the first of names that the group has: v1's file,
// then v2's (memory.usage_in_bytes, memory.current).
func readCgroupInt(dir string, names ...string) (int64, error) {
	var err error
	for _, n := range names {
		var v int64
		if v, err = cgroup.ReadInt(dir, n); !errors.Is(err, fs.ErrNotExist) {
			return v, err
		}
	}
	return 0, err
}
