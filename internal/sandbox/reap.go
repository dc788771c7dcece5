//go:build linux

package sandbox

import (
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// spawn is held while a sandboxed process or the keeper is started and
// registered, and while the reaper decides: a child that exits before it
// is registered must not look adopted.
var spawn sync.Mutex

var subreaper sync.Once

// becomeSubreaper makes jvmfit the subreaper of its descendants, once,
// at the first sandboxed start: a wrapper script's JVM whose script dies
// is reparented to jvmfit, not to init (or to no one who reaps, where
// jvmfit is a container's PID 1), so it stays in jvmfit's tree and is
// reaped here. The reaper runs on every SIGCHLD.
func becomeSubreaper() {
	subreaper.Do(func() {
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
			return // an old kernel: orphans go to init, as before
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			for range ch {
				reapAdopted()
			}
		}()
	})
}

// reapAdopted reaps the zombies among jvmfit's children that it adopted
// as their subreaper, and only those: a child some os/exec Cmd started is
// reaped by its own Wait, and reaping it here would make that Wait fail.
// An adopted process is told apart by its process group: jvmfit's other
// children share jvmfit's group, except the sandboxed processes (a group
// of their own, registered) and the keeper, which are skipped by pid.
// Code that starts a child with a process group or session of its own
// outside this package would have to be known here too.
func reapAdopted() {
	spawn.Lock()
	defer spawn.Unlock()
	own := syscall.Getpgrp()
	for _, pid := range children() {
		state, pgrp, ok := statFields(pid)
		if !ok || state != 'Z' || pgrp == own || int64(pid) == keeperPid.Load() || registered(pid) {
			continue
		}
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// children lists this process's children, from every thread's list (a
// child belongs to the thread that forked it, or that adopted it).
func children() []int {
	files, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(s); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// statFields reads a process's state letter and process group from
// /proc/PID/stat (the fields after the parenthesised command name).
func statFields(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:]) // state ppid pgrp ...
	if len(f) < 3 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0][0], pgrp, err == nil
}

// registered says whether pid is a sandboxed process's main pid.
func registered(pid int) bool {
	registry.Lock()
	defer registry.Unlock()
	for p := range registry.live {
		if p.pid == pid {
			return true
		}
	}
	return false
}
