//go:build linux

package launcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/probe"
)

// forwarded are the signals a supervising jvmfit passes to java: what a
// container runtime, a terminal or an operator sends a service (SIGQUIT
// for a thread dump, SIGUSR1/2 for an app's own handlers).
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// Recorder takes what a supervising jvmfit samples of its java: each
// window of samples (Window), then the last one (final set) once java has
// exited. Its errors are warnings: recording never stops java.
type Recorder interface {
	Started(pid int)
	Window(series []probe.Sample, final bool) error
}

// Supervision is how a supervising jvmfit samples its java.
type Supervision struct {
	Recorder Recorder
	// Every is how often the recorder gets a window (and writes its file).
	Every time.Duration
	// Sample is the sampling period within a window.
	Sample time.Duration
}

// ExitError is java's end as jvmfit's status: its exit code, or 128 + the
// signal that ended it (a PID 1 cannot re-raise a signal on itself: the
// kernel drops what PID 1 does not handle). It prints nothing.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("java ended with status %d", e.Code) }

// ExitCode is the status jvmfit ends with.
func (e *ExitError) ExitCode() int { return e.Code }

// Silent says main prints no line for it: java has said what it had to.
func (e *ExitError) Silent() bool { return true }

// supervise runs argv as jvmfit's child and stays its parent: a proper
// PID 1. It forwards the forwarded signals to java, reaps every child
// (orphans of a start script too: jvmfit is their subreaper), leaves
// java's stdin, stdout and stderr as its own, and returns java's status as
// an *ExitError. Java gets SIGKILL if jvmfit dies first (PR_SET_PDEATHSIG,
// set from an OS thread locked for java's life: the kernel sends it when
// the thread that forked ends, not the process).
func supervise(ctx context.Context, argv, environ []string, s Supervision) error {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, append([]os.Signal{syscall.SIGCHLD}, forwarded...)...)
	defer signal.Stop(sigs)
	// Orphans re-parent to the nearest subreaper, as they would to a
	// container's PID 1: a script's java that the script left is reaped
	// here rather than by a host init jvmfit cannot see.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

	started := make(chan error, 1)
	reaped := make(chan struct{})
	var pid int
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with java
		var err error
		pid, err = syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{
			Env:   environ,
			Files: []uintptr{0, 1, 2},
			Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
		})
		started <- err
		if err == nil {
			<-reaped
		}
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("cannot start %s: %w", argv[0], err)
	}
	defer close(reaped)

	rec := newWindows(ctx, pid, s)
	for sig := range sigs {
		if sig != syscall.SIGCHLD {
			_ = syscall.Kill(pid, sig.(syscall.Signal))
			continue
		}
		if ws, done := reap(pid); done {
			rec.end()
			return &ExitError{statusOf(ws)}
		}
	}
	return nil // not reached: sigs is never closed
}

// reap waits for every child that has ended; done says java was one.
func reap(java int) (ws syscall.WaitStatus, done bool) {
	for {
		var st syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &st, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || pid <= 0 {
			return ws, done
		}
		if pid == java {
			ws, done = st, true
		}
	}
}

func statusOf(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// windows samples java and hands the recorder a window every s.Every, on
// a goroutine of its own, so that a slow window (an NMT reading, a slow
// disk) never holds up a signal on its way to java. A window's sampler is
// stopped and a new one started, so that what jvmfit keeps in memory is
// one window's samples, however long java runs.
type windows struct {
	ctx  context.Context
	pid  int
	s    Supervision
	cur  *probe.Sampler
	stop chan struct{}
	done chan struct{}
}

func newWindows(ctx context.Context, pid int, s Supervision) *windows {
	w := &windows{ctx: ctx, pid: pid, s: s}
	if s.Recorder == nil {
		return w
	}
	s.Recorder.Started(pid)
	w.cur = w.start()
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go w.loop()
	return w
}

func (w *windows) start() *probe.Sampler {
	// NMT is read only if java runs with it: a JVM without it is left
	// alone. Its jcmd fallback is a child of jvmfit that reap may take
	// first; that reading is then lost, nothing else.
	return probe.Start(context.WithoutCancel(w.ctx), probe.Target{Pid: w.pid, NMT: true}, w.s.Sample)
}

func (w *windows) loop() {
	defer close(w.done)
	tick := time.NewTicker(w.s.Every)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
			series := w.cur.Stop()
			w.cur = w.start()
			w.hand(series, false)
		}
	}
}

// end hands the last window, after java has exited.
func (w *windows) end() {
	if w.stop == nil {
		return
	}
	close(w.stop)
	<-w.done
	w.hand(w.cur.Stop(), true)
}

func (w *windows) hand(series []probe.Sample, final bool) {
	if err := w.s.Recorder.Window(series, final); err != nil {
		fmt.Fprintln(os.Stderr, "jvmfit: warning: "+err.Error())
	}
}
