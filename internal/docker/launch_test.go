package docker

import (
	"strings"
	"testing"
)

// TestCreateArgsLimits: memory+swap equals memory (Docker's default would
// be twice), the CPU limits, the cgroup parent and the pid label are all
// passed, and the image comes before its arguments.
func TestCreateArgsLimits(t *testing.T) {
	a, err := createArgs(Launch{Name: "t", Image: "img:1", MemoryBytes: 256 << 20, CPUs: 1.5, CPUSet: "0-1",
		Env: []string{"JAVA_TOOL_OPTIONS=-Xmx64m"}, Args: []string{"--x"}}, "n", "/p/jvmfit-7/docker", 7)
	if err != nil {
		t.Fatal(err)
	}
	got := " " + strings.Join(a, " ") + " "
	for _, want := range []string{
		" --memory 268435456 --memory-swap 268435456 ", " --cpus 1.5 ", " --cpuset-cpus 0-1 ",
		" --cgroup-parent /p/jvmfit-7/docker ", " --label jvmfit.pid=7 ", " --network host ",
		" --tmpfs /tmp ", " --env JAVA_TOOL_OPTIONS=-Xmx64m ", " img:1 --x ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("create args %q lack %q", got, want)
		}
	}
	if _, err := createArgs(Launch{Image: "img"}, "n", "/p", 7); err == nil {
		t.Error("no memory limit and limits on: want an error")
	}
	if a, err := createArgs(Launch{Image: "img", NoLimits: true}, "n", "/p", 7); err != nil || strings.Contains(strings.Join(a, " "), "--memory") {
		t.Errorf("no limits: %q, %v", a, err)
	}
}

// TestExitForOOM: exit 137 is an OOM kill when the engine says so, or when
// the cgroup's oom_kill counter moved although the engine does not (Podman
// 4.3); a plain exit or a SIGKILL without OOM is not one.
func TestExitForOOM(t *testing.T) {
	cases := []struct {
		code   int
		engine bool
		kills  int64
		want   Exit
	}{
		{0, false, 0, Exit{Code: 0}},
		{143, false, 0, Exit{Code: 143}},
		{137, true, 0, Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}},
		{137, false, 1, Exit{Code: -1, Signal: "SIGKILL", OOMKilled: true}},
		{137, false, 0, Exit{Code: -1, Signal: "SIGKILL"}},
		{1, false, 3, Exit{Code: 1}},
	}
	for _, c := range cases {
		if got := exitFor(c.code, c.engine, c.kills); got != c.want {
			t.Errorf("exitFor(%d, %v, %d) = %+v, want %+v", c.code, c.engine, c.kills, got, c.want)
		}
	}
}

func TestParseState(t *testing.T) {
	if c, oom := parseState("137 true"); c != 137 || !oom {
		t.Errorf("parseState(137 true) = %d %v", c, oom)
	}
	if c, _ := parseState("garbage"); c != -1 {
		t.Errorf("parseState(garbage) = %d, want -1", c)
	}
}

// TestCreateArgsContainer: the descriptor's user, volumes, tmpfs and a
// published loopback port reach docker create; an empty tmpfs list mounts
// none (nil is /tmp).
func TestCreateArgsContainer(t *testing.T) {
	a, err := createArgs(Launch{Name: "t", Image: "img", NoLimits: true, Network: "bridge",
		Publish: []string{"127.0.0.1:8081:8080"}, User: "65534", Volumes: []string{"/d:/data:ro"},
		Tmpfs: []string{}}, "n", "/p", 7)
	if err != nil {
		t.Fatal(err)
	}
	got := " " + strings.Join(a, " ") + " "
	for _, want := range []string{" --network bridge ", " --publish 127.0.0.1:8081:8080 ", " --user 65534 ", " --volume /d:/data:ro "} {
		if !strings.Contains(got, want) {
			t.Errorf("create args %q lack %q", got, want)
		}
	}
	if strings.Contains(got, "--tmpfs") {
		t.Errorf("create args %q: an empty tmpfs list mounts none", got)
	}
}
