package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/jvmfit/jvmfit/internal/cleanup"
)

// exitPanic is the status after a panic: the one Go's runtime gives an
// unrecovered panic, so nothing changes for a script that knew it.
const exitPanic = 2

// onPanic, deferred by run, turns a panic of the command into cleanup.Now
// (every backend's hook: sandboxed processes and their cgroups, services,
// containers, Kubernetes Jobs), then the panic and its stack on stderr,
// and exitPanic. The stack is taken before the cleanup, from the
// panicking goroutine, so it shows where the panic came from.
//
// A panic on another goroutine cannot be recovered here; it still ends
// jvmfit at once.
func onPanic(status *int) {
	r := recover()
	if r == nil {
		return
	}
	stack := debug.Stack()
	cleanup.Now()
	fmt.Fprintf(os.Stderr, "panic: %v\n\n%s", r, stack)
	*status = exitPanic
}
