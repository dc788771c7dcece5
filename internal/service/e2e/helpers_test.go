//go:build linux

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// repo is the module root, three levels up from this package.
func repo(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// prerequisites fails unless root, PostgreSQL and the inventory jar are here
// (-short skips the sweep).
func prerequisites(t *testing.T) (appYAML string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end sweep skipped in -short mode")
	}
	prereq.Root(t)
	prereq.Postgres(t)
	prereq.Built(t, filepath.Join(repo(t), "workloads/inventory/target/inventory.jar"))
	return filepath.Join(repo(t), "workloads/inventory/app.yaml")
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// jvmfit builds the real binary once per test run.
func jvmfit(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "jvmfit-e2e-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "jvmfit")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/jvmfit")
		cmd.Dir = repo(t)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// run runs jvmfit with args, logging its stderr, and returns stdout.
func run(t *testing.T, ctx context.Context, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(ctx, jvmfit(t), args...)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if l := lastProgress(sc.Text()); l != "" {
				t.Log(l)
			}
		}
	}()
	err := cmd.Run()
	pw.Close()
	<-done
	return out.String(), err
}

// lastProgress drops the live progress redraws, keeping their last state.
func lastProgress(l string) string {
	if i := strings.LastIndex(l, "\x1b[K"); i >= 0 {
		l = l[i+3:]
	}
	return strings.TrimSpace(l)
}

// leftovers are server processes and data directories of the jvmfit
// process pid.
func leftovers(pid int) []string {
	mark := fmt.Sprintf("jvmfit-svc-%d-", pid)
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), mark) {
			continue
		}
		st, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "stat"))
		if !strings.Contains(string(st), ") Z ") {
			out = append(out, p)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), mark+"*"))
	return append(out, dirs...)
}
