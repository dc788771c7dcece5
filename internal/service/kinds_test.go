//go:build linux

package service

import (
	"context"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/size"
)

// lastCPU is the cpuset a test gives its services: the host's last CPU,
// as the trial's placement does.
func lastCPU() string { return strconv.Itoa(runtime.NumCPU() - 1) }

// assertGone: the process has ended and its cgroup is removed.
func assertGone(t *testing.T, pid int, group string) {
	t.Helper()
	if !zombie(pid) {
		t.Errorf("pid %d still running after Stop", pid)
	}
	if group != "" {
		if _, err := os.Stat(group); !os.IsNotExist(err) {
			t.Errorf("cgroup %s still there after Stop: %v", group, err)
		}
	}
}

func TestHTTPServiceServesItsBytesInItsOwnLimitedGroupAndStops(t *testing.T) {
	needRoot(t)
	s := app.Service{Name: "backend", Kind: KindHTTP, Memory: 64 * size.MiB, CPUs: 0.5,
		ResponseBytes: 1500, Latency: "fixed 30ms"}
	in, err := Start(context.Background(), s, Options{CPUSet: lastCPU()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Stop() })
	ex := in.Exports()
	if ex["backend_host"] != "127.0.0.1" || ex["backend_url"] != "http://127.0.0.1:"+ex["backend_port"] {
		t.Fatalf("exports %v", ex)
	}
	t0 := time.Now()
	resp, err := http.Get(ex["backend_url"] + "/any/path")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(t0)
	if resp.StatusCode != 200 || len(body) != 1500 || !strings.HasPrefix(string(body), "abcdefghij") {
		t.Errorf("answer %d with %d bytes %.10q, want 200 with 1500", resp.StatusCode, len(body), body)
	}
	if took < 30*time.Millisecond {
		t.Errorf("answered in %s, before its fixed 30ms latency", took)
	}
	pid := in.Pid()
	if cg := cgroupOf(pid); !strings.Contains(cg, "jvmfit-svc-backend") {
		t.Errorf("upstream in memory cgroup %q, want its own jvmfit-svc-backend group", cg)
	}
	assertLimited(t, pid, 64*size.MiB, 50000, lastCPU())
	group := in.(*procService).CgroupPath()
	u, err := in.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if u.Kind != KindHTTP || u.MemoryPeak <= 0 || u.MemoryLimit != 64*size.MiB || u.OOMKilled {
		t.Errorf("usage %+v", u)
	}
	assertGone(t, pid, group)
	if Live() != 0 {
		t.Errorf("%d services still registered", Live())
	}
}

func TestCommandServiceGetsItsPortExpandedAndIsLimitedAndStops(t *testing.T) {
	needRoot(t)
	// A real server as the command: this test binary answering "upstream".
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := app.Service{Name: "auth", Kind: KindCommand, Memory: 48 * size.MiB, CPUs: 1,
		Command: []string{exe, "upstream", "--port=${port}", "--size=7"},
		Env:     map[string]string{"AUTH_PORT": "${port}", "MODE": "test"},
		Ready:   "http://127.0.0.1:${port}/ready", Dir: t.TempDir()}
	in, err := Start(context.Background(), s, Options{CPUSet: lastCPU()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Stop() })
	port := in.Exports()["auth_port"]
	resp, err := http.Get("http://127.0.0.1:" + port + "/")
	if err != nil {
		t.Fatalf("the command does not serve on its exported port %s: %v", port, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(body) != 7 {
		t.Errorf("%d bytes, want the 7 its argv asked for", len(body))
	}
	pid := in.Pid()
	env, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if !strings.Contains(string(env), "\x00AUTH_PORT="+port+"\x00") || !strings.Contains(string(env), "\x00MODE=test\x00") {
		t.Errorf("environment lacks AUTH_PORT=%s and MODE=test", port)
	}
	if wd, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); wd != s.Dir {
		t.Errorf("runs in %s, want the descriptor's directory %s", wd, s.Dir)
	}
	assertLimited(t, pid, 48*size.MiB, 100000, lastCPU())
	group := in.(*procService).CgroupPath()
	u, err := in.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if u.Kind != KindCommand || u.MemoryPeak <= 0 {
		t.Errorf("usage %+v", u)
	}
	assertGone(t, pid, group)
}

func TestACommandThatNeverBecomesReadyGetsOneLineAndLeavesNothing(t *testing.T) {
	needRoot(t)
	mark := "61.0" + strconv.Itoa(os.Getpid())
	s := app.Service{Name: "auth", Kind: KindCommand, Memory: 32 * size.MiB,
		Command: []string{"sh", "-c", "echo starting auth; echo 'no key in AUTH_KEY, waiting' >&2; exec sleep " + mark},
		Ready:   "port", ReadyTimeout: 1500 * time.Millisecond, Dir: t.TempDir()}
	_, err := Start(context.Background(), s, Options{})
	if err == nil {
		t.Fatal("a command that never listens was taken as ready")
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{`service "auth" (command)`, "not ready within 1.5s", "connection on port", "no key in AUTH_KEY, waiting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q", want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is more than one line")
	}
	time.Sleep(100 * time.Millisecond)
	if pids, _ := leftoversOf(t, mark); len(pids) > 0 {
		t.Errorf("the command is still running: %v", pids)
	}
	if Live() != 0 {
		t.Errorf("%d services still registered", Live())
	}
}

func TestACommandThatExitsSaysSoAndWhatItSaid(t *testing.T) {
	needRoot(t)
	s := app.Service{Name: "auth", Kind: KindCommand,
		Command: []string{"sh", "-c", "echo 'bad config: port ${port} taken' >&2; exit 3"}, Ready: "port", Dir: t.TempDir()}
	_, err := Start(context.Background(), s, Options{})
	if err == nil || !strings.Contains(err.Error(), "exited (exit code 3) before it was ready; it last said: bad config: port ") {
		t.Fatalf("error %v", err)
	}
}
