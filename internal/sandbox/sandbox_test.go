//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	os.Exit(m.Run())
}

// needCgroups fails unless this process can create trial groups.
func needCgroups(t *testing.T) {
	t.Helper()
	prereq.Root(t)
	if _, err := cgroup.NewManager(cgroupRoot); err != nil {
		t.Fatalf("cgroups not writable as root: %v", err)
	}
}

// start runs spec and makes sure it is stopped when the test ends.
func start(t *testing.T, ctx context.Context, spec Spec) *Process {
	t.Helper()
	p, err := Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Stop(0)
		if err := p.StopErr(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// waitDone waits for the process to end, failing the test past limit.
func waitDone(t *testing.T, p *Process, limit time.Duration) Exit {
	t.Helper()
	select {
	case <-p.Done():
		return p.Exit()
	case <-time.After(limit):
		t.Fatalf("process %d still running after %v", p.Pid(), limit)
		return Exit{}
	}
}

// syncBuffer is a bytes.Buffer safe for the copier goroutines of os/exec.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// assertGone fails unless every pid is dead and every path is missing.
func assertGone(t *testing.T, pids []int, paths []string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		for syscall.Kill(pid, 0) == nil && !isZombie(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d still alive", pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s still exists", p)
		}
	}
}

// isZombie: a dead child of an exited parent may linger until init reaps it.
func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] == 'Z'
}
