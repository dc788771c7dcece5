//go:build linux

package docker_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/owner"
)

const readerHelperEnv = "JVMFIT_DOCKER_TEST_READER"

// TestHelperReader is not a test: run with readerHelperEnv set, it plays a
// jvmfit that reads an image's JDK, says so with its container still
// there, and waits to be killed.
func TestHelperReader(t *testing.T) {
	if os.Getenv(readerHelperEnv) == "" {
		return
	}
	owner.Use(os.Getenv(readerHelperEnv), 0)
	readThenWait(docker.Default())
}

// readThenWait plays a jvmfit that reads an image's JDK through e: it
// says so with its view of the image (a container, a mount) still there,
// and waits to be killed.
func readThenWait(e docker.Engine) {
	r := docker.NewImageReader(e, jdk17Image)
	if _, err := r.JDK(context.Background()); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("read")
	time.Sleep(10 * time.Minute)
}

// TestReaderContainerIsSwept: a jvmfit killed with SIGKILL while it reads
// an image's JDK leaves the container it reads from; the next jvmfit of
// the same owner sweeps it, as it sweeps a trial's.
func TestReaderContainerIsSwept(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	cmd, line, err := startHelper(t, "TestHelperReader", readerHelperEnv+"="+s.Owner)
	if err != nil || strings.TrimSpace(line) != "read" {
		t.Fatalf("the helper did not read the image's JDK: %q, %v", line, err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if ids := containers(t, pid); len(ids) != 1 {
		t.Fatalf("after SIGKILL want the reader's container left, got %v", ids)
	}
	if _, err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ids := containers(t, pid); len(ids) != 0 {
		t.Errorf("the reader's container left after Sweep: %v", ids)
	}
}

const podmanReaderHelperEnv = "JVMFIT_DOCKER_TEST_PODMAN_READER"

// TestHelperPodmanReader is not a test: run with podmanReaderHelperEnv
// set, it plays a jvmfit that reads an image's JDK through podman, says
// so with the image still mounted, and waits to be killed.
func TestHelperPodmanReader(t *testing.T) {
	if os.Getenv(podmanReaderHelperEnv) == "" {
		return
	}
	readThenWait(podman)
}

// TestPodmanImageMountIsSwept: a jvmfit killed with SIGKILL while podman
// has the image mounted for it leaves the mount; the next jvmfit's sweep
// undoes it, as it removes a trial's container.
func TestPodmanImageMountIsSwept(t *testing.T) {
	needPodman(t, jdk17Image)
	s := podmanSandbox(t)
	mounted := func() bool {
		out, err := podman.Run(context.Background(), nil, "image", "mount")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(out, jdk17Image)
	}
	if mounted() {
		t.Fatalf("%s is mounted before the test: podman image unmount %s", jdk17Image, jdk17Image)
	}
	cmd, line, err := startHelper(t, "TestHelperPodmanReader", podmanReaderHelperEnv+"=1")
	if err != nil || strings.TrimSpace(line) != "read" {
		t.Fatalf("the helper did not read the image's JDK: %q, %v", line, err)
	}
	if !mounted() {
		t.Fatalf("podman does not show %s mounted while the helper reads it", jdk17Image)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if !mounted() {
		t.Fatalf("after SIGKILL want the helper's mount left")
	}
	if _, err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if mounted() {
		t.Errorf("%s still mounted after Sweep", jdk17Image)
	}
}
