package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// oneLineExit2 runs jvmfit with args and wants exit 2, one line on
// stderr naming want, nothing on stdout.
func oneLineExit2(t *testing.T, want string, args ...string) {
	t.Helper()
	out, errs, code := clitest.Run(t, nil, args...)
	checkOneLine(t, out, errs, code, want)
}

func checkOneLine(t *testing.T, out, errs string, code int, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 2 || len(lines) != 1 || !strings.Contains(errs, want) || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and one line with %q", code, out, errs, want)
	}
}

func TestEndpointWithoutJVMMetrics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "# TYPE up gauge\nup 1\nhttp_requests_total{code=\"200\"} 7\n")
	}))
	defer srv.Close()
	oneLineExit2(t, "has no JVM metrics", "profile", "--scrape", srv.URL+"/metrics", "--duration", "0s")
}

func TestUnreachableURL(t *testing.T) {
	url := "http://" + freeAddr(t) // closed again: nothing listens
	oneLineExit2(t, "cannot reach "+url, "profile", "--scrape", url+"/metrics", "--duration", "0s")
	oneLineExit2(t, "cannot query Prometheus at "+url, "profile", "--prometheus", url, "--selector", `{app="orders"}`, "--range", "1h")
}

// A real Prometheus that scrapes a real JVM-less endpoint: the selector
// matches no JVM series.
func TestPrometheusWithoutMatchingSeries(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "up_thing 1\n")
	}))
	defer srv.Close()
	prom := startPrometheus(t, fmt.Sprintf("scrape_configs:\n  - job_name: other\n    static_configs:\n      - targets: ['%s']\n        labels: {app: other}\n", strings.TrimPrefix(srv.URL, "http://")))
	oneLineExit2(t, `no JVM series matching {app="orders"}`, "profile", "--prometheus", prom, "--selector", `{app="orders"}`, "--range", "5m")
}

func TestPidThatIsNotAJVM(t *testing.T) {
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleep.Process.Kill(); _ = sleep.Wait() }()
	oneLineExit2(t, "is not a JVM", "profile", "--pid", strconv.Itoa(sleep.Process.Pid), "--duration", "1s")
	// A pid that no process has.
	oneLineExit2(t, "no such process", "profile", "--pid", "999999999", "--duration", "1s")
}

// A JVM of root, and jvmfit run as nobody: its perf data is root's alone.
func TestJVMOfAnotherUser(t *testing.T) {
	prereq.Root(t)
	clitest.NeedJava(t)
	dir, err := os.MkdirTemp("", "jvmfit-profile-user-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "Idle.java")
	if err := os.WriteFile(src, []byte("class Idle { public static void main(String[] a) throws Exception { Thread.sleep(120_000); } }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jvm := exec.Command(clitest.Java17, "-Xmx32m", src)
	jvm.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := jvm.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = jvm.Process.Kill(); _ = jvm.Wait() }()
	perf := hsperf.PathFor(jvm.Process.Pid)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := hsperf.ReadFile(perf); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JVM wrote no perf data at %s in 60s", perf)
		}
	}
	// nobody can run a copy of jvmfit in a directory it may enter.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "jvmfit")
	copyFile(t, clitest.Bin(), bin)
	cmd := exec.Command(bin, "profile", "--pid", strconv.Itoa(jvm.Process.Pid), "--duration", "1s")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Dir = &out, &errb, dir
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	checkOneLine(t, out.String(), errb.String(), code, "is a JVM of user root, and jvmfit runs as nobody")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
