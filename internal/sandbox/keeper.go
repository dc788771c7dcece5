//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// keeperScript outlives jvmfit to kill what it leaves. It reads trial
// group directories, one a line, until end of file: the pipe's write end
// is jvmfit's alone (close-on-exec), so EOF comes when jvmfit's life ends,
// however it ends (SIGKILL, the OOM killer, a panic on a goroutine main
// cannot recover). It then kills every process still in those groups
// (cgroup.kill on v2, SIGKILL over cgroup.procs until empty on v1) and
// removes them. Pdeathsig alone reached only jvmfit's direct child: a
// wrapper script's JVM lived on, and the next run's sweep never touches a
// group with a process in it. Directories already gone are skipped, so
// the ordinary end (every group removed) costs a few stats. The signals a
// terminal sends are ignored: the keeper must act after jvmfit, not with it.
const keeperScript = `trap '' INT TERM HUP PIPE
nl='
'
dirs=
while IFS= read -r d; do dirs="$dirs$d$nl"; done
IFS=$nl
set -f
for d in $dirs; do [ -f "$d/cgroup.kill" ] && echo 1 > "$d/cgroup.kill"; done 2>/dev/null
i=0
while [ $i -lt 200 ]; do
	left=
	for d in $dirs; do
		[ -f "$d/cgroup.procs" ] || continue
		while read -r p; do left=1; kill -9 "$p"; done < "$d/cgroup.procs"
	done 2>/dev/null
	[ -z "$left" ] && break
	sleep 0.05; i=$((i+1))
done
i=0
while [ $i -lt 40 ]; do
	left=
	for d in $dirs; do [ -d "$d" ] && { rmdir "$d" || left=1; }; done 2>/dev/null
	[ -z "$left" ] && break
	sleep 0.05; i=$((i+1))
done
for d in $dirs; do rmdir "${d%/*}"; done 2>/dev/null
exit 0`

// keeper is this jvmfit's one keeper process, started with the first
// trial group and again if it was killed.
var keeper struct {
	sync.Mutex
	w    *os.File      // the pipe's write end
	dead chan struct{} // closed when the keeper exited
}

// keeperPid is the keeper's pid, set under spawn: the reaper reads it
// holding spawn, never the keeper's lock (which startKeeper holds while
// it takes spawn).
var keeperPid atomic.Int64

// keep tells the keeper about a new group's directories.
func keep(dirs []string) error {
	keeper.Lock()
	defer keeper.Unlock()
	if keeper.w != nil {
		select {
		case <-keeper.dead:
			// Killed by someone: a write would be EPIPE (and SIGPIPE, which
			// main takes for a closed output). Start another.
			keeper.w.Close()
			keeper.w = nil
		default:
		}
	}
	if keeper.w == nil {
		if err := startKeeper(); err != nil {
			return err
		}
	}
	_, err := keeper.w.WriteString(strings.Join(dirs, "\n") + "\n")
	return err
}

// startKeeper starts the keeper in a session of its own (a terminal's
// Ctrl-C or hang-up must not end it before jvmfit's cleanup) and hands it
// the directories of every group still alive, for a keeper started again.
func startKeeper() error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command("/bin/sh", "-c", keeperScript, "jvmfit-keeper")
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	spawn.Lock() // the reaper must not take the keeper's exit (reap.go)
	err = cmd.Start()
	if err == nil {
		keeperPid.Store(int64(cmd.Process.Pid))
	}
	spawn.Unlock()
	r.Close()
	if err != nil {
		w.Close()
		return fmt.Errorf("cannot start the cgroup keeper: %v", err)
	}
	dead := make(chan struct{})
	go func() { _ = cmd.Wait(); close(dead) }()
	keeper.w, keeper.dead = w, dead
	var live []string
	registry.Lock()
	for p := range registry.live {
		if p.group != nil {
			live = append(live, p.group.Paths()...)
		}
	}
	registry.Unlock()
	if len(live) > 0 {
		_, err = w.WriteString(strings.Join(live, "\n") + "\n")
	}
	return err
}
