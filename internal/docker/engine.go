package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// Engine is the container command line jvmfit drives: "docker" (or
// "podman", which takes the same arguments). The daemon it reaches is the
// user's own choice, through DOCKER_HOST or the current docker context.
type Engine struct {
	Bin string // the command, looked up in PATH
	// Dir is the working directory of its commands ("" = jvmfit's own).
	// Podman's conmon writes an "oom" file into the directory it inherits
	// when a container is OOM-killed, so a podman Sandbox gives it one of
	// its own (podman.go).
	Dir string
}

// Default is the docker command on PATH.
func Default() Engine { return Engine{Bin: "docker"} }

// Check is nil when the engine's command exists and its daemon answers.
func (e Engine) Check(ctx context.Context) error {
	if _, err := exec.LookPath(e.Bin); err != nil {
		return fmt.Errorf("no %s command on PATH: %s", e.Bin, e.installHint())
	}
	if _, err := e.Run(ctx, nil, "version", "--format", "{{.Server.Version}}"); err != nil {
		return fmt.Errorf("the %s daemon does not answer (%w): %s", e.Bin, err, e.daemonHint())
	}
	return nil
}

// Run runs one engine command and returns its trimmed stdout; the error
// carries the command's stderr, which is where the engine says what failed.
func (e Engine) Run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	out, err := e.Output(ctx, stdin, args...)
	return strings.TrimSpace(string(out)), err
}

// Output is Run with stdout as it came (a tar from docker cp, say).
func (e Engine) Output(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, e.Bin, args...)
	cmd.Dir = e.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			return nil, fmt.Errorf("%s %s: %w", e.Bin, args[0], err)
		}
		return nil, fmt.Errorf("%s %s: %w: %s", e.Bin, args[0], err, lastLine(msg))
	}
	return out.Bytes(), nil
}

// ExitCode is the exit status of a failed Run's command, or -1.
func ExitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
