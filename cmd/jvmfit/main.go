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
	"syscall"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/sandbox"
	"github.com/jvmfit/jvmfit/internal/service"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// version is set by the linker (-X main.version=...).
var version = "dev"

func main() {
	// SIGINT and SIGTERM cancel the context; every command cleans up its
	// processes and cgroups through deferred calls as the context ends.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first signal cancels ctx and deferred calls stop everything
		// with a grace period. A second one means "now": kill what is
		// left, remove its cgroups and data directories, and exit.
		<-ctx.Done()
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		<-again
		sandbox.StopAll()
		service.StopAll()
		trial.CloseContainers()
		os.Exit(130)
	}()
	err := newRoot().ExecuteContext(ctx)
	trial.CloseContainers() // containers left by a failed path, and the cgroup sub-tree
	// stop() cancels ctx too, so read whether a signal came first.
	interrupted := ctx.Err() != nil
	stop()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "jvmfit: "+err.Error())
	os.Exit(exitStatus(err, interrupted))
}

// exitStatus: 2 for what the user fixes (bad input, a cgroup layout or
// fault that gives trials no limits), 130 after a signal, else 1.
func exitStatus(err error, interrupted bool) int {
	var ue usageError
	var pe *cgroup.PlaceError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe):
		return 2
	case interrupted:
		return 130
	}
	return 1
}
