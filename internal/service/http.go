//go:build linux

package service

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/upstream"
)

// KindHTTP is an HTTP upstream jvmfit runs itself (internal/upstream):
// fixed bytes after a delay from a latency distribution.
const KindHTTP = "http"

// Executable is the jvmfit binary that runs `jvmfit upstream`; a
// variable so a test binary can name itself (its TestMain answers
// "upstream" as jvmfit does).
var Executable = os.Executable

// startHTTP runs `jvmfit upstream` in the service's cgroup and waits for
// the line that gives its port: it binds port 0 itself, so no other
// process can take the port between a check and the bind.
func startHTTP(ctx context.Context, s app.Service, o Options) (Instance, error) {
	exe, err := Executable()
	if err != nil {
		return nil, fmt.Errorf("service %q (http): cannot find jvmfit's binary: %v", s.Name, err)
	}
	p := newProcService(s)
	fail := func(err error) (Instance, error) {
		p.Stop()
		return nil, fmt.Errorf("service %q (http): %v", s.Name, err)
	}
	ready := &portLine{found: make(chan int, 1)}
	// Its own environment only: GOMAXPROCS follows its cgroup's CPUs.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}
	argv := []string{exe, "upstream", "--size", strconv.FormatInt(s.ResponseBytes, 10), "--latency", s.Latency}
	if err := p.start(ctx, argv, env, os.TempDir(), o, ready); err != nil {
		return nil, fmt.Errorf("service %q (http): %v", s.Name, err)
	}
	timeout := readyTimeout(s, o)
	select {
	case p.port = <-ready.found:
		return p, nil
	case <-p.proc.Done():
		return fail(p.exitedEarly())
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-time.After(timeout):
		return fail(fmt.Errorf("not listening within %s; it last said: %s", timeout, p.tail.last(3)))
	}
}

// watchCancel stops the service as soon as ctx ends (jvmfit got SIGINT).
func watchCancel(ctx context.Context, p *procService) {
	select {
	case <-ctx.Done():
		p.Stop()
	case <-p.stopped:
	}
}

func readyTimeout(s app.Service, o Options) time.Duration {
	switch {
	case s.ReadyTimeout > 0:
		return s.ReadyTimeout
	case o.ReadyTimeout > 0:
		return o.ReadyTimeout
	}
	return DefaultReadyTimeout
}

// portLine watches the upstream's output for upstream.ReadyPrefix.
type portLine struct {
	mu    sync.Mutex
	buf   []byte
	done  bool
	found chan int
}

func (w *portLine) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(b), nil
	}
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		line := string(w.buf[:i])
		w.buf = w.buf[i+1:]
		if rest, ok := strings.CutPrefix(line, upstream.ReadyPrefix); ok {
			digits, _, _ := strings.Cut(rest, " ")
			if port, err := strconv.Atoi(digits); err == nil && port > 0 {
				w.done = true
				w.buf = nil
				w.found <- port
				break
			}
		}
	}
	if len(w.buf) > 4096 {
		w.buf = nil
	}
	return len(b), nil
}
