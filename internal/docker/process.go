//go:build linux

package docker

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// Process is a started container: the method set of trial.Process.
type Process struct {
	eng   Engine
	id    string
	pid   int    // the container's init process, seen from the host
	cgDir string // its memory cgroup directory
	v2    bool   // cgDir is on the unified hierarchy
	limit int64  // its memory limit in bytes (Launch.MemoryBytes)
	logs  *exec.Cmd

	statsMu sync.Mutex
	dirs    map[string]string // controller -> the container's cgroup directory
	last    cgroup.Stats      // the last reading, kept once the cgroup is gone

	// Sampled while the container runs: the engine removes the cgroup as
	// soon as the container exits, so its peak and OOM-kill count must be
	// read before then.
	peak     atomic.Int64
	oomKills atomic.Int64
	sampled  atomic.Bool

	done     chan struct{} // closed once exit is set (finish)
	exit     Exit
	doneOnce sync.Once
	stopOnce sync.Once
	stopped  chan struct{}
	stopErr  error
}

// Exit is how the container ended (trial.Exit's fields).
type Exit struct {
	Code      int    // the container's exit status; -1 when SIGKILL ended it
	Signal    string // "SIGKILL" for exit 137, else ""
	OOMKilled bool   // the kernel's OOM killer ended it
}

// ID is the container's id.
func (p *Process) ID() string { return p.id }

// Pid is the container's init process (the JVM for a java entrypoint) as
// the host sees it: its /proc/<pid> gives RSS, fds and, under root/, the
// container's hsperfdata.
func (p *Process) Pid() int { return p.pid }

// CgroupDir is the container's memory cgroup directory (it exists while
// the container runs).
func (p *Process) CgroupDir() string { return p.cgDir }

// Done is closed once the container has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// MemoryPeak is the container cgroup's peak usage (max_usage_in_bytes),
// read now if it still runs, else the last value sampled.
func (p *Process) MemoryPeak() (int64, error) {
	p.sample()
	if !p.sampled.Load() {
		// A container OOM-killed within its first moments (a pre-touched
		// heap) can be gone before one sample: the memcg kills only at its
		// limit, so the limit is its peak, as the kernel counted it.
		if p.exited() && p.exit.OOMKilled && p.limit > 0 {
			return p.limit, nil
		}
		return 0, fmt.Errorf("no memory figure for container %.12s: its cgroup %s was never readable", p.id, p.cgDir)
	}
	return p.peak.Load(), nil
}

// exited says whether the container's exit is known (Done is closed).
func (p *Process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// OOMKillsSeen is the container cgroup's oom_kill count as last sampled:
// the evidence of an OOM kill that does not depend on the engine.
func (p *Process) OOMKillsSeen() int64 { return p.oomKills.Load() }

// Exit is how the container ended; valid once Done is closed.
func (p *Process) Exit() Exit {
	<-p.done
	return p.exit
}

// follow samples the cgroup until the container exits, then records how.
func (p *Process) follow() {
	// The OOM notifications outlive the cgroup (podman_oomevents.go).
	events := p.eng.watchOOM(p.cgDir)
	defer events.close()
	waited := make(chan struct{})
	go func() {
		// docker wait returns at once for a container that already exited.
		_, _ = p.eng.Run(context.Background(), nil, "wait", p.id)
		close(waited)
	}()
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-tick.C:
			p.sample()
		case <-waited:
			running = false
		}
	}
	p.sample()
	e := p.readExit()
	// Podman 4: the counter, then the notifications, then the kernel log
	// (oomkmsg.go), which a kill too early for the other two is still in.
	if e.Signal == "SIGKILL" && !e.OOMKilled && (events.ooms(oomSettle) > 0 || p.eng.kernelLoggedOOM(p.cgDir)) {
		e.OOMKilled = true
	}
	p.waitLogs()
	p.finish(e)
}

// finish records how the container ended, once.
func (p *Process) finish(e Exit) {
	p.doneOnce.Do(func() {
		p.exit = e
		close(p.done)
	})
}

// sampleEvery bounds how long an OOM kill can go unseen in the cgroup's
// counter before the engine removes it (Docker reports it anyway; Podman
// 4 does not).
const sampleEvery = 20 * time.Millisecond

// sample keeps the cgroup's peak and OOM-kill count; a vanished cgroup
// (the container exited) leaves them as they were.
func (p *Process) sample() {
	if v, err := readPeak(p.cgDir, p.v2); err == nil {
		p.sampled.Store(true)
		storeMax(&p.peak, v)
	}
	if v, ok := oomKillCount(p.cgDir, p.v2); ok {
		storeMax(&p.oomKills, v)
	}
}

func storeMax(a *atomic.Int64, v int64) {
	for old := a.Load(); v > old && !a.CompareAndSwap(old, v); old = a.Load() {
	}
}

// readExit asks the engine how the container ended. Exit 137 is SIGKILL;
// it counts as an OOM kill when the engine says so or when the cgroup's
// own oom_kill counter moved (Podman 4.3 never sets OOMKilled).
func (p *Process) readExit() Exit {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := p.eng.Run(ctx, nil, "inspect", "--format", "{{.State.ExitCode}} {{.State.OOMKilled}}", p.id)
	if err != nil {
		return Exit{Code: -1, Signal: "SIGKILL"}
	}
	code, oom := parseState(out)
	return exitFor(code, oom, p.oomKills.Load())
}

func parseState(s string) (code int, oom bool) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return -1, false
	}
	code, err := strconv.Atoi(f[0])
	if err != nil {
		code = -1
	}
	return code, f[1] == "true"
}

func exitFor(code int, engineOOM bool, oomKills int64) Exit {
	if code != 137 {
		return Exit{Code: code}
	}
	return Exit{Code: -1, Signal: "SIGKILL", OOMKilled: engineOOM || oomKills > 0}
}

// waitLogs lets docker logs -f drain what the container wrote; it ends on
// its own when the container stops, and is killed if it lingers.
func (p *Process) waitLogs() {
	ended := make(chan struct{})
	go func() { _ = p.logs.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		_ = p.logs.Process.Kill()
		<-ended
	}
}

// watch stops the container when ctx ends before Stop was called.
func (p *Process) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		p.Stop(CancelGrace)
	case <-p.stopped:
	}
}

// Stop ends the container (SIGTERM, then SIGKILL after grace: docker stop)
// and removes it, whatever happened before. Safe to call many times and
// from many goroutines; all wait for the first call to finish.
func (p *Process) Stop(grace time.Duration) Exit {
	p.stopOnce.Do(func() {
		p.stopErr = p.stop(grace)
		close(p.stopped)
	})
	<-p.stopped
	return p.Exit()
}

// StopErr reports a cleanup failure of Stop (a container that would not go
// away), nil otherwise.
func (p *Process) StopErr() error {
	<-p.stopped
	return p.stopErr
}

// exitReadWait bounds how long Stop waits, after the engine's stop, for
// the container's exit to be read before removing it.
const exitReadWait = 10 * time.Second

func (p *Process) stop(grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace+60*time.Second)
	defer cancel()
	select {
	case <-p.done:
	default:
		secs := strconv.Itoa(int(math.Ceil(grace.Seconds())))
		_, _ = p.eng.Run(ctx, nil, "stop", "--time", secs, p.id)
		// follow reads the exit from the container once wait returns,
		// which podman's does up to 250 ms after the end (it polls): rm
		// only after that, or the exit of a container that stopped in
		// time is lost with it.
		select {
		case <-p.done:
		case <-time.After(exitReadWait):
		}
	}
	// rm -f kills whatever stop left, so done follows.
	_, err := p.eng.Run(ctx, nil, "rm", "--force", p.id)
	select {
	case <-p.done:
	case <-ctx.Done():
		p.finish(Exit{Code: -1, Signal: "SIGKILL"})
	}
	if err != nil {
		return fmt.Errorf("cannot remove container %.12s: %w", p.id, err)
	}
	return nil
}
