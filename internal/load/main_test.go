//go:build linux

package load

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// TestMain gives this test process's own threads a real-time round-robin
// priority when it can (root). The timing tests measure milliseconds; on a
// 2-core machine shared with JVMs and compilers a normal process waits tens
// of ms for a CPU, and nice values do not help across sessions (autogroup).
// The tests use a few percent of a CPU, and the kernel's RT throttling caps
// real-time tasks at 95% anyway. Only this process's threads are changed;
// threads it creates later inherit the policy. JVMFIT_TEST_NO_RT=1 skips it.
func TestMain(m *testing.M) {
	if os.Geteuid() == 0 && os.Getenv("JVMFIT_TEST_NO_RT") == "" {
		tasks, _ := os.ReadDir("/proc/self/task")
		param := struct{ priority int32 }{1}
		for _, t := range tasks {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				syscall.Syscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), 2 /* SCHED_RR */, uintptr(unsafe.Pointer(&param)))
			}
		}
	}
	os.Exit(m.Run())
}
