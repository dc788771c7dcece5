package main

import (
	"os"

	"github.com/jvmfit/jvmfit/internal/upstream"
)

// asUpstream runs `jvmfit upstream ...`, a trial's built-in HTTP upstream
// (services: kind http, docs/services.md), when args ask for it. jvmfit
// starts it in the service's cgroup, so it is no command of --help, and it
// bypasses cobra: its flags and signals are upstream.Main's own, and
// nothing of the trial machinery (cleanup, signal handling) runs in it.
func asUpstream(args []string) (code int, ok bool) {
	if len(args) == 0 || args[0] != "upstream" {
		return 0, false
	}
	return upstream.Main(args[1:], os.Stdout, os.Stderr), true
}
