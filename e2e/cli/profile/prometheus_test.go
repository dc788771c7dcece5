package profile

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// startPrometheus runs Debian's Prometheus on a free loopback port with
// the scrape configuration given (its global part is written here: every
// second), and returns its URL. It is stopped and its data removed when
// the test ends, and dies with the test process if that is killed.
func startPrometheus(t *testing.T, scrapeConfigs string) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		prereq.Fail(t, "Prometheus (Debian's prometheus package)", "run .ci/install test")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	body := "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + scrapeConfigs
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	logf, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		logf.Close()
	})
	url := "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); ; {
		if r, err := http.Get(url + "/-/ready"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return url
			}
		}
		select {
		case <-done:
			b, _ := os.ReadFile(filepath.Join(dir, "prometheus.log"))
			t.Fatalf("prometheus exited: %s", b)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("prometheus not ready in 60s")
		}
	}
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func freePort(t *testing.T) int {
	t.Helper()
	var port int
	fmt.Sscanf(freeAddr(t)[len("127.0.0.1:"):], "%d", &port)
	return port
}
