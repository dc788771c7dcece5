//go:build linux

package docker_test

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

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/owner"
)

const (
	podmanHelperEnv = "JVMFIT_PODMAN_TEST_HELPER"
	podmanOwnerEnv  = "JVMFIT_PODMAN_TEST_OWNER" // the test's own, so that its sweep may clean up
)

// TestPodmanHelperJvmfit is not a test: run with podmanHelperEnv set, it
// plays a jvmfit under podman that turns SIGINT into the cancellation of
// its context, as cmd/jvmfit's main does, starts filecache, prints the
// container's id and, once it answers, "ready"; it waits for the signal,
// then for the container's end, closes the sandbox and exits.
func TestPodmanHelperJvmfit(t *testing.T) {
	port := os.Getenv(podmanHelperEnv)
	if port == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fail := func(err error) { fmt.Println("error:", err); os.Exit(1) }
	owner.Use(os.Getenv(podmanOwnerEnv), 0) // the test's database's run
	s, err := docker.New(ctx, podman)
	if err != nil {
		fail(err)
	}
	p, err := s.Start(ctx, docker.Launch{
		Name: "interrupted", Image: filecacheImage, MemoryBytes: 256 * mi, CPUs: 1,
		Args: []string{"--server.port=" + port},
	})
	if err != nil {
		fail(err)
	}
	fmt.Println("container", p.ID())
	if err := waitReady(p, "http://127.0.0.1:"+port+"/actuator/health", 120*time.Second); err != nil {
		fail(err)
	}
	fmt.Println("ready")
	<-ctx.Done()
	// The sandbox stops and removes the container on its own; this is
	// what a trial's deferred Stop then finds.
	<-p.Done()
	p.Stop(0)
	s.Close()
	os.Exit(0)
}

// TestPodmanSIGINTLeavesNothing: a jvmfit under podman gets SIGINT while
// its container runs: the container is removed, its cgroups are gone, and
// so is the jvmfit-<pid> sub-tree in every hierarchy.
func TestPodmanSIGINTLeavesNothing(t *testing.T) {
	needPodman(t, filecacheImage)
	s := podmanSandbox(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestPodmanHelperJvmfit$", "-test.count=1")
	cmd.Env = append(os.Environ(), podmanHelperEnv+"="+strconv.Itoa(freePort(t)), podmanOwnerEnv+"="+s.Owner)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	ended := make(chan struct{})
	var waitErr error
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- strings.TrimSpace(sc.Text()):
			default: // nobody reads any more
			}
		}
		close(lines)
		waitErr = cmd.Wait()
		close(ended)
	}()
	defer func() {
		// Only if the test failed before the helper ended: SIGKILL, then
		// Sweep removes what it left.
		_ = cmd.Process.Kill()
		<-ended
		_, _ = s.Sweep(context.Background())
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(150 * time.Second):
			return "(nothing for 150 s)"
		}
	}
	id, ok := strings.CutPrefix(next(), "container ")
	if !ok {
		t.Fatalf("the helper jvmfit did not start a container")
	}
	if l := next(); l != "ready" {
		t.Fatalf("the helper's filecache did not get ready: %q", l)
	}
	pid := cmd.Process.Pid
	if ids := podmanContainers(t, pid); len(ids) != 1 {
		t.Fatalf("want the helper's one running container, got %v", ids)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
		if waitErr != nil {
			t.Errorf("the helper jvmfit ended with %v after SIGINT, want exit 0", waitErr)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("the helper jvmfit still runs 90 s after SIGINT")
	}
	if ids := podmanContainers(t, pid); len(ids) != 0 {
		t.Errorf("containers left after SIGINT: %v", ids)
	}
	if _, err := podman.Run(context.Background(), nil, "container", "exists", id); err == nil {
		t.Errorf("container %.12s still exists", id)
	}
	base := filepath.Join(filepath.Dir(filepath.Dir(s.Tree.Parent)), "jvmfit-"+strconv.Itoa(pid))
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Tree.Mount), "*", base)); len(left) != 0 {
		t.Errorf("cgroups left after SIGINT: %v", left)
	}
}
