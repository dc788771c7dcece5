// Command jvmfit sizes Java services for containers: it launches the JVM with
// options that fit the container, runs trials under real cgroup limits, and
// searches for the smallest footprint that meets an SLO.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/jvmfit/jvmfit/internal/cleanup"
)

// version is set by the linker (-X main.version=...).
var version = "dev"

func main() {
	if code, ok := asUpstream(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(run(newRoot()))
}

// stopSignals end a command, with its cleanup. SIGHUP is one: a dropped
// SSH session sends it, and Go's default for it is to die at once, before
// any deferred call, leaving the trial's cgroups, services and containers.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// run executes the command line with root and returns jvmfit's exit status.
func run(root *cobra.Command) (status int) {
	// A panic in the command (on this goroutine) runs the emergency cleanup
	// before jvmfit dies; deferred calls that the panic unwound may not
	// have stopped everything.
	defer onPanic(&status)
	// A stop signal cancels the context; every command cleans up its
	// processes and cgroups through deferred calls as the context ends.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	ctx, brokenPipe := onBrokenPipe(ctx)
	go func() {
		// The first signal cancels ctx and deferred calls stop everything
		// with a grace period. A second one means "now": kill what is
		// left, remove its cgroups and data directories, and exit.
		<-ctx.Done()
		again := make(chan os.Signal, 1)
		signal.Notify(again, stopSignals...)
		<-again
		cleanup.Now()
		os.Exit(130)
	}()
	err := root.ExecuteContext(ctx)
	cleanup.Now() // what a failed path left (containers, the engines' cgroup sub-tree)
	if brokenPipe() {
		return exitBrokenPipe // quiet, as a reader that stopped reading expects
	}
	// stop() cancels ctx too, so read whether a signal came first.
	interrupted := ctx.Err() != nil
	stop()
	if err == nil {
		return 0
	}
	var quiet interface{ Silent() bool } // launcher.ExitError: java's own status
	if !errors.As(err, &quiet) || !quiet.Silent() {
		fmt.Fprintln(os.Stderr, "jvmfit: "+err.Error())
	}
	return exitStatus(err, interrupted)
}

// exitBrokenPipe is a shell's status for a process that SIGPIPE ended.
const exitBrokenPipe = 128 + int(syscall.SIGPIPE)

// onBrokenPipe ends ctx when jvmfit's output is closed (jvmfit ... | head):
// without this, Go's runtime dies of SIGPIPE at the first write to a closed
// stdout or stderr, before any deferred call, and leaves the trial's
// processes and its jvmfit-<pid> cgroups for the next run's sweep. Notified,
// that write fails with EPIPE instead and the command stops as after
// SIGTERM, cleaning up on its way out. brokenPipe says whether it came.
func onBrokenPipe(parent context.Context) (ctx context.Context, brokenPipe func() bool) {
	ctx, cancel := context.WithCancel(parent)
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE) // for the process's life: later writes fail, never kill
	var got atomic.Bool
	go func() {
		<-pipe
		got.Store(true)
		cancel()
	}()
	return ctx, got.Load
}

// exitStatus: 2 for what the user fixes (bad input, a cgroup layout or
// fault that gives trials no limits), an error's own status (exec stopped
// by a signal while planning: 128+signo), 130 after a signal, else 1.
func exitStatus(err error, interrupted bool) int {
	var ue usageError
	var fix interface{ UserFixes() bool } // cgroup.PlaceError: a layout or fault to fix
	var own interface{ ExitCode() int }   // launcher.SignalError
	switch {
	case errors.As(err, &ue), errors.As(err, &fix) && fix.UserFixes():
		return 2
	case errors.As(err, &own):
		return own.ExitCode()
	case interrupted:
		return 130
	}
	return 1
}
