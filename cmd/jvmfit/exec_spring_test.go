package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/size"
)

// The issue's case on a real Spring service: `jvmfit exec -- java -Xmx300m
// -jar filecache.jar` in a 512 MiB cgroup. The plan of 844e2d4 capped
// metaspace at 35 MiB there, and filecache (32-37 MiB of metaspace) died of
// OutOfMemoryError: Metaspace before it was ready; now it must start, with
// no metaspace cap below what an app needs, and one warning line.
func TestExecXmx300mStartsASpringService(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: filecache takes 20 s or more to start on a shared machine")
	}
	prereq.Root(t)
	clitest.NeedJava(t)
	jar, _ := filepath.Abs("../../workloads/filecache/target/filecache.jar")
	prereq.Built(t, jar)
	self := clitest.Bin()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	p, err := sandbox.Start(ctx, sandbox.Spec{Name: "exec-spring",
		Argv:   []string{self, "exec", "--", clitest.Java17, "-Xmx300m", "-jar", jar, fmt.Sprintf("--server.port=%d", port)},
		Env:    []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")},
		Limits: cgroup.Spec{MemoryBytes: 512 * size.MiB, CPUs: 1}, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(5 * time.Second)
	url := fmt.Sprintf("http://127.0.0.1:%d/actuator/health", port)
	ready := false
	for !ready {
		select {
		case <-p.Done():
			t.Fatalf("filecache exited before ready (%s): %s", p.Exit(), lastLines(out.String()+errb.String(), 5))
		case <-ctx.Done():
			t.Fatalf("filecache not ready in time: %s", lastLines(out.String(), 5))
		case <-time.After(time.Second):
		}
		if r, err := http.Get(url); err == nil {
			ready = r.StatusCode == 200
			r.Body.Close()
		}
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(string(cmdline), "\x00")
	for _, a := range args {
		if strings.HasPrefix(a, "-XX:MaxMetaspaceSize=") {
			if n, _ := size.Parse(strings.TrimPrefix(a, "-XX:MaxMetaspaceSize=")); n < 64*size.MiB {
				t.Errorf("metaspace capped at %s: %v", a, args)
			}
		}
	}
	if !strings.Contains(strings.Join(args, " "), "-XX:+ExitOnOutOfMemoryError") {
		t.Errorf("java did not get jvmfit's options: %v", args)
	}
	if strings.Count(errb.String(), "jvmfit: warning:") != 1 {
		t.Errorf("want one warning line: %s", lastLines(errb.String(), 5))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
