//go:build linux

package docker

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jvmfit/jvmfit/internal/owner"
)

// CancelGrace is how long a container gets between SIGTERM and SIGKILL when
// the context of Start ends before Stop.
const CancelGrace = 2 * time.Second

// Sandbox starts containers with a trial's limits, under this jvmfit's
// cgroup sub-tree. Its Start has trial.Sandbox's shape.
type Sandbox struct {
	Engine Engine
	Tree   Tree
	// Owner is whose run this is (owner.ID): Sweep removes only this
	// owner's containers whose run is gone, and any older than Stale
	// (0 = none by age).
	Owner string
	Stale time.Duration
	pid   int
}

// New checks the engine and finds the cgroup sub-tree for this process.
func New(ctx context.Context, e Engine) (*Sandbox, error) {
	if err := e.Check(ctx); err != nil {
		return nil, err
	}
	driver, err := e.CgroupDriver(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot learn the %s cgroup driver: %w", e.Bin, err)
	}
	t, err := OwnTree(os.Getpid(), driver)
	if err != nil {
		return nil, err
	}
	if e.IsPodman() {
		if e.Dir, err = podmanWorkDir(os.Getpid()); err != nil {
			return nil, err
		}
	}
	return &Sandbox{Engine: e, Tree: t, Owner: owner.ID(), Stale: owner.Stale(), pid: os.Getpid()}, nil
}

var (
	seq        atomic.Int64
	unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_.-]+`) })
)

// Start creates and starts the container and follows it. Cancelling ctx
// stops it (CancelGrace) and removes it; the caller must still call Stop,
// which is idempotent. On error nothing is left behind.
func (s *Sandbox) Start(ctx context.Context, l Launch) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("jvmfit-%d-%s-%d", s.pid, unsafeName().ReplaceAllString(l.Name, "_"), seq.Add(1))
	args, err := createArgs(l, name, s.Tree.Parent, s.pid)
	if err != nil {
		return nil, err
	}
	// Whose run it is, for the sweeps of later runs (sweep.go).
	args = append([]string{args[0],
		"--label", LabelOwner + "=" + s.Owner,
		"--label", LabelProcess + "=" + owner.Self().String(),
		"--label", LabelCreated + "=" + strconv.FormatInt(time.Now().Unix(), 10),
	}, args[1:]...)
	id, err := s.Engine.Run(ctx, nil, s.Engine.withCreateFlags(args)...)
	if err != nil {
		// A create cut short by ctx may still have made the container.
		s.remove(name)
		return nil, fmt.Errorf("cannot create the container of %s: %w", l.Image, err)
	}
	p := &Process{eng: s.Engine, id: id, limit: l.MemoryBytes, done: make(chan struct{}), stopped: make(chan struct{})}
	if err := p.begin(ctx, s.Tree, l); err != nil {
		s.remove(id)
		return nil, err
	}
	go p.watch(ctx)
	return p, nil
}

// remove deletes a container whatever its state, on a context of its own:
// cleanup must run even when the trial's context has ended.
func (s *Sandbox) remove(nameOrID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _ = s.Engine.Run(ctx, nil, "rm", "-f", nameOrID)
}

// begin starts the container, finds its init process and cgroup, and
// starts following its output and exit.
func (p *Process) begin(ctx context.Context, t Tree, l Launch) error {
	if _, err := p.eng.Run(ctx, nil, "start", p.id); err != nil {
		return fmt.Errorf("cannot start the container of %s: %w", l.Image, p.eng.explain(err))
	}
	out, err := p.eng.Run(ctx, nil, "inspect", "--format", "{{.State.Pid}}", p.id)
	if err != nil && p.eng.IsPodman() && ctx.Err() == nil {
		// Podman 4's inspect fails when the process it reads the cgroup
		// of ends meanwhile (a JVM OOM-killed at once); asked again, it
		// sees the container exited.
		out, err = p.eng.Run(ctx, nil, "inspect", "--format", "{{.State.Pid}}", p.id)
	}
	if err != nil {
		return fmt.Errorf("cannot inspect the container of %s: %w", l.Image, err)
	}
	p.pid, _ = strconv.Atoi(out)
	p.cgDir = t.Dir(p.eng.cgroupName(p.id, t.Driver))
	p.v2 = t.Version == 2
	// The engine names the cgroup (Podman: libpod-<id>); the process's
	// own /proc/<pid>/cgroup, read from the host's side, says where it is,
	// if it is below the parent: an exited process's (a JVM OOM-killed at
	// once) says "/" on cgroup v1.
	if rel := memoryCgroupOf(p.pid); strings.HasPrefix(rel, t.path()+"/") {
		p.cgDir = filepath.Join(t.Mount, rel)
	}
	p.sample()
	// docker logs -f replays the output from the start, so nothing the
	// JVM printed before this point is lost.
	p.logs = exec.Command(p.eng.Bin, "logs", "--follow", p.id)
	p.logs.Stdout, p.logs.Stderr = orDiscard(l.Stdout), orDiscard(l.Stderr)
	if err := p.logs.Start(); err != nil {
		return fmt.Errorf("cannot follow the output of %s: %w", l.Image, err)
	}
	go p.follow()
	return nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
