//go:build linux

package docker_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/owner"
)

const helperEnv = "JVMFIT_DOCKER_TEST_HELPER"

// TestHelperJvmfit is not a test: run with helperEnv set, it plays a
// jvmfit that starts a container, prints its id and waits to be killed.
func TestHelperJvmfit(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		return
	}
	// The jvmfit it plays ran on the test's database: the same owner.
	owner.Use(os.Getenv(helperEnv), 0)
	s, err := docker.New(context.Background(), docker.Default())
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "killed", Image: jdk17Image, MemoryBytes: 128 * mi, CPUs: 1,
		Args: []string{"java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PauseAtExit", "-version"},
	})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("container", p.ID())
	time.Sleep(10 * time.Minute)
}

// TestSweepAfterSigkill: a jvmfit killed with SIGKILL while its container
// runs leaves the container and its cgroup sub-tree; the next jvmfit on
// the same database (the same owner)'s
// Sweep removes both: 0 containers and 0 jvmfit-<pid> cgroups left.
func TestSweepAfterSigkill(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	cmd, line, err := startHelper(t, "TestHelperJvmfit", helperEnv+"="+s.Owner)
	id, ok := strings.CutPrefix(strings.TrimSpace(line), "container ")
	if err != nil || !ok {
		t.Fatalf("the helper jvmfit did not start a container: %q, %v", line, err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if ids := containers(t, pid); len(ids) != 1 {
		t.Fatalf("after SIGKILL want the killed jvmfit's container left, got %v", ids)
	}
	base := filepath.Join(filepath.Dir(filepath.Dir(s.Tree.Parent)), "jvmfit-"+strconv.Itoa(pid))
	if _, err := os.Stat(filepath.Join(s.Tree.Mount, base)); err != nil {
		t.Fatalf("the killed jvmfit's memory cgroup sub-tree is missing before Sweep: %v", err)
	}
	removed, err := s.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Other dead jvmfits' containers may go too; the helper's must go.
	// Packages' tests run in parallel and a docker trial sweeps on start,
	// so another test binary may have removed it first: then it is in no
	// list, but gone all the same.
	ids := containers(t, pid)
	if len(ids) != 0 {
		t.Errorf("containers left after Sweep: %v", ids)
	}
	if !slices.ContainsFunc(removed, func(n string) bool { return strings.HasPrefix(n, "jvmfit-"+strconv.Itoa(pid)+"-") }) {
		t.Logf("Sweep removed %v, not the killed jvmfit's container %.12s: a concurrent sweep took it", removed, id)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Tree.Mount), "*", base))
	if len(left) != 0 {
		t.Errorf("cgroups left after Sweep: %v", left)
	}
}

// startHelper starts this test binary's helper test name as a child
// jvmfit with env added, and returns it with the first line it printed;
// the child is killed and reaped when the test ends.
func startHelper(t *testing.T, name, env string) (*exec.Cmd, string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	return cmd, line, err
}
