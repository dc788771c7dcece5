//go:build linux

// Package sandbox runs one process under a trial's cgroup limits, from its
// first instruction to its last, and always cleans up after it: the process
// group, anything left in the cgroup, and the cgroup itself.
package sandbox

import (
	"fmt"
	"io"
	"syscall"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// Spec says what to run and under which limits.
type Spec struct {
	Name     string      // trial name, used for the cgroup directory (sanitised, made unique)
	Argv     []string    // program and arguments; Argv[0] is looked up in PATH
	Env      []string    // nil inherits jvmfit's environment
	Dir      string      // working directory; "" = jvmfit's
	Limits   cgroup.Spec // memory, CPUs, cpuset, pids (0 = cgroup.DefaultPids)
	NoLimits bool        // run without any cgroup (a baseline); Limits is ignored
	Stdout   io.Writer   // nil discards
	Stderr   io.Writer   // nil discards
}

// Exit is how the process ended. Valid once Done is closed.
type Exit struct {
	Code      int    `json:"code"`             // exit status; -1 when a signal ended it
	Signal    string `json:"signal,omitempty"` // e.g. "SIGKILL"
	OOMKilled bool   `json:"oom_killed"`       // the kernel's OOM killer ended it (or a process of its group)
	Stopped   bool   `json:"stopped"`          // jvmfit's Stop signalled it before it ended
}

func (e Exit) String() string {
	switch {
	case e.OOMKilled:
		return "OOM-killed (" + e.Signal + ")"
	case e.Signal != "":
		return "killed by " + e.Signal
	default:
		return fmt.Sprintf("exit code %d", e.Code)
	}
}

var sigNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
	syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
	syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
	syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
}

func sigName(s syscall.Signal) string {
	if n, ok := sigNames[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}
