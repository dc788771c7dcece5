//go:build linux

package service

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
)

// KindCommand is any process the app calls, such as another jar: its
// argv, environment, readiness check and limits come from the descriptor.
const KindCommand = "command"

// startCommand gives the command a free loopback port as ${port}, runs it
// in its own cgroup from the descriptor's directory, and waits until it
// is ready. One that never is gets one line: its name, what was waited
// for, and the last it said; so does one that listens beyond loopback.
func startCommand(ctx context.Context, s app.Service, o Options) (Instance, error) {
	p := newProcService(s)
	fail := func(err error) (Instance, error) {
		p.Stop()
		return nil, fmt.Errorf("service %q (command): %v", s.Name, err)
	}
	var err error
	if p.port, err = app.FreePort(); err != nil {
		return fail(err)
	}
	port := strconv.Itoa(p.port)
	expand := func(v string) string { return strings.ReplaceAll(v, "${port}", port) }
	argv := make([]string, len(s.Command))
	for i, a := range s.Command {
		argv[i] = expand(a)
	}
	if err := p.start(ctx, argv, commandEnv(s.Env, expand), s.Dir, o); err != nil {
		return nil, fmt.Errorf("service %q (command): %v", s.Name, err)
	}
	if err := p.awaitReady(ctx, expand(s.Ready), readyTimeout(s, o)); err != nil {
		return fail(err)
	}
	// Ready is when its sockets are open: a wildcard bind found now ends
	// the trial before the app starts, as a service that is not ready does.
	if err := p.onLoopbackOnly(); err != nil {
		return fail(err)
	}
	return p, nil
}

// commandEnv is jvmfit's environment (PATH, JAVA_HOME: a jar needs its
// java) with the descriptor's env on top.
func commandEnv(own map[string]string, expand func(string) string) []string {
	env := os.Environ()
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+expand(own[k]))
	}
	return env
}

// awaitReady polls the URL (an answer below 400) or the port (a TCP
// connect) every 100ms.
func (p *procService) awaitReady(ctx context.Context, ready string, timeout time.Duration) error {
	what := "a connection on port " + strconv.Itoa(p.port)
	check := func() bool {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p.port)), time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	if strings.HasPrefix(ready, "http://") {
		what = ready
		client := &http.Client{Timeout: 2 * time.Second}
		check = func() bool {
			resp, err := client.Get(ready)
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode < 400
		}
	}
	deadline := time.After(timeout)
	for {
		if check() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.proc.Done():
			return p.exitedEarly()
		case <-deadline:
			return fmt.Errorf("not ready within %s (waited for %s); it last said: %s", timeout, what, p.tail.last(3))
		case <-time.After(100 * time.Millisecond):
		}
	}
}
