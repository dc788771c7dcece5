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
)

// version is set by the linker (-X main.version=...).
var version = "dev"

func main() {
	// SIGINT and SIGTERM cancel the context; every command cleans up its
	// processes and cgroups through deferred calls as the context ends.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, restore the default handlers so that a
		// second Ctrl-C ends jvmfit at once; children still die with it
		// (Pdeathsig) and the next run sweeps their empty cgroups.
		<-ctx.Done()
		stop()
	}()
	err := newRoot().ExecuteContext(ctx)
	// stop() cancels ctx too, so read whether a signal came first.
	interrupted := ctx.Err() != nil
	stop()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "jvmfit: "+err.Error())
	var ue usageError
	switch {
	case errors.As(err, &ue):
		os.Exit(2)
	case interrupted:
		os.Exit(130)
	default:
		os.Exit(1)
	}
}
