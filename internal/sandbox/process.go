//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// CancelGrace is how long a process gets between SIGTERM and SIGKILL when
// Start's context is cancelled (jvmfit got SIGINT or SIGTERM).
const CancelGrace = 2 * time.Second

// cgroupRoot is the filesystem root the cgroups are found under.
var cgroupRoot = "/"

// Process is one sandboxed process. Stop must always be called.
type Process struct {
	spec  Spec
	cmd   *exec.Cmd
	pid   int
	group cgroup.Group // nil with NoLimits

	done     chan struct{} // closed once the main process is reaped
	exit     Exit
	signaled atomic.Bool // Stop sent a signal

	stopOnce sync.Once
	stopped  chan struct{} // closed once Stop finished
	stalled  chan struct{} // closed once a memory stall is seen (stall.go)
	stopErr  error

	mu       sync.Mutex
	final    *cgroup.Stats // last reading before the group went away
	procPeak int64         // no-limits mode: highest RSS seen
	stall    string        // what the memory stall looked like
}

var seq atomic.Int64

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

// Start creates the trial's cgroup (unless NoLimits) and starts the
// process inside it, in a process group of its own, set to die with
// jvmfit (Pdeathsig). Cancelling ctx stops the process (CancelGrace) and
// removes the cgroup; the caller must still call Stop, which is idempotent.
func Start(ctx context.Context, spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, fmt.Errorf("sandbox: no command given")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prog, err := resolveProgram(spec.Argv[0], spec.Dir)
	if err != nil {
		return nil, err
	}
	p := &Process{spec: spec, done: make(chan struct{}), stopped: make(chan struct{}), stalled: make(chan struct{})}
	// The resolved path, so the shell's own PATH (from spec.Env) cannot
	// pick another program than the one checked here.
	argv := append([]string{prog}, spec.Argv[1:]...)
	var entered *os.File
	var extra []*os.File
	if !spec.NoLimits {
		if entered, extra, err = p.enterGroup(); err != nil {
			return nil, err
		}
		argv = enterArgv(p.group.Paths(), argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = spec.Env, spec.Dir
	cmd.Stdout, cmd.Stderr = spec.Stdout, spec.Stderr
	cmd.ExtraFiles = extra
	// Output copiers must not keep Wait (and so Done) hanging after the
	// process ended because a straggler child holds the pipe.
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd = cmd
	becomeSubreaper()
	spawn.Lock()
	err = cmd.Start()
	if err == nil {
		p.pid = cmd.Process.Pid
		register(p)
	}
	spawn.Unlock()
	for _, f := range extra {
		f.Close()
	}
	if err != nil {
		if entered != nil {
			entered.Close()
		}
		if p.group != nil {
			p.group.Remove()
		}
		return nil, fmt.Errorf("cannot start %s: %v", spec.Argv[0], err)
	}
	go p.wait()
	if entered != nil {
		if err := awaitEntered(entered); err != nil {
			p.Stop(0)
			return nil, fmt.Errorf("%v %s", err, p.group.Path())
		}
	}
	go p.watch(ctx)
	if p.group != nil {
		go p.watchStall()
	}
	return p, nil
}

// enterGroup makes the process's cgroup (sweeping what a killed jvmfit
// left, once) and the pipe on which the child says it has entered it.
func (p *Process) enterGroup() (entered *os.File, extra []*os.File, err error) {
	m, err := cgroup.NewManager(cgroupRoot)
	if err != nil {
		return nil, nil, err
	}
	sweepStale(m)
	name := unsafeName().ReplaceAllString(p.spec.Name, "_")
	if name == "" || name[0] == '.' || name[0] == '-' || name[0] == '_' {
		name = "trial" + name
	}
	if len(name) > 60 {
		name = name[:60]
	}
	name += "-" + strconv.FormatInt(seq.Add(1), 10)
	// Every group gets a pids limit, a caller that gives none the default:
	// it is a guard against a runaway trial, never a measured limit.
	l := p.spec.Limits
	if l.Pids == 0 {
		l.Pids = cgroup.DefaultPids
	}
	if p.group, err = m.Create(name, l); err != nil {
		return nil, nil, err
	}
	// Before anything runs in the group: from here a jvmfit killed
	// outright still has it killed and removed (keeper.go).
	if err := keep(p.group.Paths()); err != nil {
		p.group.Remove()
		return nil, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		p.group.Remove()
		return nil, nil, err
	}
	return r, []*os.File{w}, nil
}

// sweep remembers whether the dead jvmfits' trees are all gone. The first
// trial sweeps them; a tree whose killed JVM was still exiting then is
// kept (a live process is never touched), so each later trial start and
// end tries again until none is left, instead of once per run.
var sweep struct {
	sync.Mutex
	clean bool
}

// staleLeft says whether a sweep has yet to find nothing left.
func staleLeft() bool {
	sweep.Lock()
	defer sweep.Unlock()
	return !sweep.clean
}

func sweepStale(m *cgroup.Manager) {
	sweep.Lock()
	defer sweep.Unlock()
	if sweep.clean {
		return
	}
	_, _ = m.Sweep()
	sweep.clean = len(m.Stale()) == 0
}

// CheckLimits says, changing nothing, whether a group with these limits
// can be made here; a host whose cgroup layout or rights give trials no
// limits is refused with a *cgroup.PlaceError (one line, the CLI's exit 2).
func CheckLimits(l cgroup.Spec) error {
	m, err := cgroup.NewManager(cgroupRoot)
	if err != nil {
		return err
	}
	return m.Check(l)
}

// Pid is the main process's id, also its process group id.
func (p *Process) Pid() int { return p.pid }

// CgroupPath is the trial group's main directory ("" with NoLimits).
func (p *Process) CgroupPath() string {
	if p.group == nil {
		return ""
	}
	return p.group.Path()
}

// Done is closed when the main process has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit tells how the main process ended; the zero Exit until Done.
func (p *Process) Exit() Exit {
	select {
	case <-p.done:
		return p.exit
	default:
		return Exit{}
	}
}

// Stats reads the cgroup (or, with NoLimits, /proc of the main process).
// After Stop it returns the last reading taken before the group was removed.
func (p *Process) Stats() (cgroup.Stats, error) {
	p.mu.Lock()
	final := p.final
	p.mu.Unlock()
	if final != nil {
		return *final, nil
	}
	if p.group == nil {
		return p.procStats()
	}
	return p.group.Stats()
}

func (p *Process) wait() {
	_ = p.cmd.Wait()
	ws, _ := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	e := Exit{Code: ws.ExitStatus(), Stopped: p.signaled.Load()}
	if ws.Signaled() {
		e.Code, e.Signal = -1, sigName(ws.Signal())
	}
	if p.group != nil {
		if st, err := p.group.Stats(); err == nil {
			e.OOMKilled = oomKilled(st, e)
		}
	}
	p.exit = e
	close(p.done)
}

// oomKilled: the oom_kill counter is the reliable signal (failcnt stays 0
// on recent kernels). Kernels before 4.13 lack it; there a SIGKILL nobody
// at jvmfit sent, with usage at the limit, is the OOM killer's mark.
func oomKilled(st cgroup.Stats, e Exit) bool {
	if st.OOMKills > 0 {
		return true
	}
	atLimit := st.Limit > 0 && st.Peak >= st.Limit-st.Limit/50
	return e.Signal == "SIGKILL" && !e.Stopped && atLimit
}

func (p *Process) keepFinal(st cgroup.Stats) {
	p.mu.Lock()
	p.final = &st
	p.mu.Unlock()
}

// watch stops the process when ctx ends before Stop was called.
func (p *Process) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		p.Stop(CancelGrace)
	case <-p.stopped:
	}
}

// Stop ends the process and cleans up: SIGTERM to the process group, grace,
// SIGKILL, then SIGKILL to anything left in the cgroup, then the cgroup is
// removed. It returns how the process ended. Safe to call many times and
// from many goroutines; all wait for the first call to finish.
func (p *Process) Stop(grace time.Duration) Exit {
	p.stopOnce.Do(func() { p.stopErr = p.stop(grace) })
	<-p.stopped
	return p.Exit()
}

// StopErr reports a cleanup failure of Stop (e.g. a cgroup that would not
// go away), nil otherwise.
func (p *Process) StopErr() error {
	<-p.stopped
	return p.stopErr
}

func (p *Process) stop(grace time.Duration) error {
	defer close(p.stopped)
	defer unregister(p)
	select {
	case <-p.done:
	default:
		p.signaled.Store(true)
		_ = syscall.Kill(-p.pid, syscall.SIGTERM)
		t := time.NewTimer(grace)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}
	// The main process may be gone while its children live on, in the
	// process group or (after setsid) only in the cgroup.
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	var errs []error
	if p.group != nil {
		errs = append(errs, p.group.Kill())
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		// Uninterruptible sleep (D state): leave the group rather than hang.
		return errors.Join(append(errs, fmt.Errorf("process %d did not die within 10s of SIGKILL; cgroup %s left", p.pid, p.CgroupPath()))...)
	}
	if p.group != nil {
		if st, err := p.group.Stats(); err == nil {
			p.keepFinal(st)
		}
		errs = append(errs, p.group.Remove())
		if staleLeft() { // reading where this process sits costs I/O: only while needed
			if m, err := cgroup.NewManager(cgroupRoot); err == nil {
				sweepStale(m)
			}
		}
	}
	return errors.Join(errs...)
}
