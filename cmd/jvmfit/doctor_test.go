package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// jvmfit doctor on this host, through the binary: exit 0, every line.
func TestDoctorCommand(t *testing.T) {
	prereq.Root(t)
	bin := clitest.Bin()
	out, err := exec.Command(bin, "doctor").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, want := range []string{"cgroup:      v", "place:       ", "controllers: ", "swap:        ", "psi:         ", "engine:      docker: ", "engine:      podman: "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
}

// A cgroup layout or fault that gives trials no limits is the user's to
// fix, however deep it was wrapped: exit 2.
func TestPlaceErrorExitsTwo(t *testing.T) {
	pe := &cgroup.PlaceError{Msg: "cannot enable +cpu in /sys/fs/cgroup/agent/cgroup.subtree_control: the cgroup filesystem is read-only"}
	for _, err := range []error{pe, fmt.Errorf("trial filecache: %w", pe), asUsage(pe)} {
		if got := exitStatus(err, false); got != 2 {
			t.Errorf("%v: exit %d, want 2", err, got)
		}
	}
	if got := exitStatus(errors.New("KO"), false); got != 1 {
		t.Errorf("KO exits %d", got)
	}
}

// run -v says where the trial runs before anything else, even before a
// bad descriptor is refused.
func TestRunVerbosePrintsDoctor(t *testing.T) {
	prereq.Root(t)
	bin := clitest.Bin()
	cmd := exec.Command(bin, "run", "-v", "--app", "/nonexistent/app.yaml", "--memory", "256Mi")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2: %s", err, out)
	}
	text := string(out)
	place, bad := strings.Index(text, "place:       "), strings.Index(text, "/nonexistent/app.yaml")
	if place < 0 || bad < 0 || place > bad {
		t.Errorf("want the doctor's lines before the refusal:\n%s", text)
	}
}
