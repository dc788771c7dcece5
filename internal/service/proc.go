//go:build linux

package service

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/sandbox"
)

// stopGrace is how long a service of kind http or command has to exit on
// SIGTERM before its cgroup is killed: neither holds data worth a flush.
const stopGrace = 2 * time.Second

// procService is a service that is one process (and its children) in a
// cgroup of its own, serving on 127.0.0.1:port: kinds http and command.
// The sandbox removes the group on every path, the next run's sweep
// included, so nothing of it survives jvmfit.
type procService struct {
	svc  app.Service
	port int
	proc *sandbox.Process
	tail *tail
	stopper
}

func newProcService(s app.Service) *procService {
	return &procService{svc: s, tail: &tail{}, stopper: newStopper()}
}

// start runs argv in the service's cgroup, its output to the tail (and
// the trial's log, and extra), registered for the emergency cleanup. The
// process outlives ctx's cancellation by watchCancel's Stop, which gives
// it its grace.
func (p *procService) start(ctx context.Context, argv, env []string, dir string, o Options, extra ...io.Writer) error {
	out := p.output(o, extra...)
	proc, err := sandbox.Start(context.WithoutCancel(ctx), sandbox.Spec{
		Name: "jvmfit-svc-" + p.svc.Name, Argv: argv, Env: env, Dir: dir,
		Limits: p.limits(o), NoLimits: o.NoLimits,
		Stdout: out, Stderr: out,
	})
	if err != nil {
		return err
	}
	p.proc = proc
	register(p)
	go watchCancel(ctx, p)
	return nil
}

// limits are the service's own: its memory and CPUs from the descriptor,
// its cpuset the trial's placement.
func (p *procService) limits(o Options) cgroup.Spec {
	return cgroup.Spec{MemoryBytes: p.svc.Memory, CPUs: p.svc.CPUs, CPUSet: o.CPUSet}
}

// output is where the service's stdout and stderr go: the tail, and the
// trial's service log if any.
func (p *procService) output(o Options, extra ...io.Writer) io.Writer {
	ws := append([]io.Writer{p.tail}, extra...)
	if o.Log != nil {
		ws = append(ws, o.Log)
	}
	return io.MultiWriter(ws...)
}

func (p *procService) Name() string          { return p.svc.Name }
func (p *procService) Pid() int              { return p.proc.Pid() }
func (p *procService) Done() <-chan struct{} { return p.proc.Done() }

// CgroupPath is the service's group ("" without limits).
func (p *procService) CgroupPath() string { return p.proc.CgroupPath() }

func (p *procService) Exports() map[string]string {
	n := p.svc.Name + "_"
	port := strconv.Itoa(p.port)
	return map[string]string{
		n + "host": "127.0.0.1",
		n + "port": port,
		n + "url":  "http://127.0.0.1:" + port,
	}
}

func (p *procService) Stats() (Usage, error) { return usageOf(p.svc, p.svc.Kind, p.proc) }

func (p *procService) Stop() (Usage, error) { return p.stopOnce(p.stop) }

func (p *procService) stop() (Usage, error) {
	u := Usage{Name: p.svc.Name, Kind: p.svc.Kind, MemoryLimit: p.svc.Memory, CPUs: p.svc.CPUs}
	if p.proc == nil {
		return u, nil
	}
	exit := p.proc.Stop(stopGrace)
	err := p.proc.StopErr()
	if got, e := p.Stats(); e == nil {
		u = got
		u.OOMKilled = u.OOMKilled || exit.OOMKilled
	}
	unregister(p)
	return u, err
}

// exitedEarly says a service ended before it was ready, with what it said.
func (p *procService) exitedEarly() error {
	return fmt.Errorf("exited (%s) before it was ready; it last said: %s", p.proc.Exit(), p.tail.last(3))
}
