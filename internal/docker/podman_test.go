package docker

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestPodmanCreateFlags: under podman, create gets --cgroups no-conmon
// before the image (not among the image's arguments); docker's command
// line is left as it is.
func TestPodmanCreateFlags(t *testing.T) {
	args, err := createArgs(Launch{Name: "t", Image: "img:1", MemoryBytes: 64 << 20, Args: []string{"--x"}}, "n", "/p", 7)
	if err != nil {
		t.Fatal(err)
	}
	p := Engine{Bin: "/usr/bin/podman"}.withCreateFlags(args)
	i, img := slices.Index(p, "no-conmon"), slices.Index(p, "img:1")
	if p[0] != "create" || i < 2 || p[i-1] != "--cgroups" || img < i || p[len(p)-1] != "--x" {
		t.Errorf("podman create args %q: want --cgroups no-conmon between create and the image", p)
	}
	if len(p) != len(args)+2 {
		t.Errorf("podman create args %q: want the docker ones plus two", p)
	}
	if d := Default().withCreateFlags(args); !slices.Equal(d, args) {
		t.Errorf("docker create args changed: %q", d)
	}
	if !slices.Equal(args[:2], []string{"create", "--name"}) {
		t.Errorf("withCreateFlags changed its argument: %q", args)
	}
}

// TestPodmanPsLabel: podman's ps reads a label from the .Labels map;
// docker's has a .Label function.
func TestPodmanPsLabel(t *testing.T) {
	if got := (Engine{Bin: "podman"}).psLabel(LabelPid); got != `{{index .Labels "jvmfit.pid"}}` {
		t.Errorf("podman: %s", got)
	}
	if got := Default().psLabel(LabelPid); got != `{{.Label "jvmfit.pid"}}` {
		t.Errorf("docker: %s", got)
	}
}

// TestPodmanExplain: the rlimit failure of a podman without
// default_ulimits gets its fix, still wrapping the engine's error; other
// errors and other engines' are left alone.
func TestPodmanExplain(t *testing.T) {
	base := errors.New("podman start: exit status 126: Error: runc: runc create failed: unable to start container process: error during container init: error setting rlimits for ready process: error setting rlimit type 7: operation not permitted: OCI permission denied")
	got := Engine{Bin: "podman"}.explain(base)
	if !errors.Is(got, base) || !strings.Contains(got.Error(), "default_ulimits") || strings.Contains(got.Error(), "\n") {
		t.Errorf("podman rlimit error: %v", got)
	}
	if got := Default().explain(base); got != base {
		t.Errorf("docker's error changed: %v", got)
	}
	other := errors.New("podman start: no such container")
	if got := (Engine{Bin: "podman"}).explain(other); got != other {
		t.Errorf("another podman error changed: %v", got)
	}
}

// TestPodmanCheckHints: a missing podman names podman, not docker.io.
func TestPodmanCheckHints(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Engine{Bin: "podman"}.Check(t.Context())
	if err == nil || !strings.Contains(err.Error(), "install podman") || strings.Contains(err.Error(), "docker.io") {
		t.Errorf("no podman on PATH: %v", err)
	}
}

// TestPodmanCgroupName: podman's container cgroups are libpod-<id>,
// docker's <id>.
func TestPodmanCgroupName(t *testing.T) {
	if got := (Engine{Bin: "podman"}).cgroupName("abc", DriverCgroupfs); got != "libpod-abc" {
		t.Errorf("podman: %s", got)
	}
	if got := Default().cgroupName("abc", DriverCgroupfs); got != "abc" {
		t.Errorf("docker: %s", got)
	}
}
