//go:build linux

package sandbox

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

func TestExitCodeAndSignalPassThrough(t *testing.T) {
	needCgroups(t)
	for _, c := range []struct {
		script string
		want   Exit
	}{
		{"exit 0", Exit{Code: 0}},
		{"exit 7", Exit{Code: 7}},
		{"kill -SEGV $$", Exit{Code: -1, Signal: "SIGSEGV"}},
		{"kill -KILL $$", Exit{Code: -1, Signal: "SIGKILL"}},
	} {
		p := start(t, context.Background(), Spec{Name: "exit", Argv: []string{"sh", "-c", c.script},
			Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
		if got := waitDone(t, p, 10*time.Second); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.script, got, c.want)
		}
		if got := p.Stop(time.Second); got != c.want {
			t.Errorf("%q: Stop after the end gave %+v", c.script, got)
		}
	}
}

func TestStartsInsideItsGroup(t *testing.T) {
	needCgroups(t)
	var out syncBuffer
	// The program's very first view of itself must be the trial group.
	p := start(t, context.Background(), Spec{Name: "inside", Argv: []string{"cat", "/proc/self/cgroup"},
		Stdout: &out, Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	dirs := p.group.Paths()
	if e := waitDone(t, p, 10*time.Second); e.Code != 0 {
		t.Fatalf("cat: %v", e)
	}
	for _, d := range dirs {
		// .../jvmfit-<pid>/inside-N, as the kernel writes it.
		tail := filepath.Join(filepath.Base(filepath.Dir(d)), filepath.Base(d))
		if !strings.Contains(out.String(), tail) {
			t.Errorf("/proc/self/cgroup of the program lacks %s:\n%s", tail, out.String())
		}
	}
}

func TestStopKillsTreeThatIgnoresSIGTERM(t *testing.T) {
	needCgroups(t)
	// Every process ignores SIGTERM; one even leaves the process group.
	script := `trap "" TERM; sleep 60 & sleep 60 & setsid sleep 60 & echo started; wait`
	var out syncBuffer
	p := start(t, context.Background(), Spec{Name: "tree", Argv: []string{"sh", "-c", script},
		Stdout: &out, Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 1}})
	var pids []int
	for deadline := time.Now().Add(5 * time.Second); len(pids) < 4; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("tree did not start: procs %v", pids)
		}
		pids, _ = p.group.Procs()
	}
	paths := p.group.Paths()
	t0 := time.Now()
	e := p.Stop(300 * time.Millisecond)
	if took := time.Since(t0); took < 300*time.Millisecond || took > 8*time.Second {
		t.Errorf("Stop took %v with a 300ms grace", took)
	}
	if e.Signal != "SIGKILL" || !e.Stopped || e.OOMKilled {
		t.Errorf("exit %+v, want SIGKILL by Stop", e)
	}
	assertGone(t, pids, paths)
	if Live() != 0 {
		t.Errorf("%d processes still registered", Live())
	}
}

func TestStopGivesGraceToSIGTERM(t *testing.T) {
	needCgroups(t)
	// The shell says when its trap is installed: a fixed wait was too short
	// on a slow machine (the cgroup v2 guest under emulation).
	var out syncBuffer
	p := start(t, context.Background(), Spec{Name: "grace", Argv: []string{"sh", "-c", `trap "exit 3" TERM; echo trapped; while :; do sleep 0.05; done`},
		Stdout: &out, Limits: cgroup.Spec{MemoryBytes: 64 << 20}})
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "trapped"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the shell did not install its TERM trap within 10s")
		}
	}
	e := p.Stop(10 * time.Second)
	if e.Code != 3 || !e.Stopped {
		t.Errorf("exit %+v, want code 3 from the TERM trap", e)
	}
}

func TestContextCancelCleansUp(t *testing.T) {
	needCgroups(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := start(t, ctx, Spec{Name: "cancel", Argv: []string{"sleep", "60"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUs: 0.5}})
	paths := p.group.Paths()
	cancel()
	e := waitDone(t, p, 5*time.Second)
	if e.Signal != "SIGTERM" || !e.Stopped {
		t.Errorf("exit %+v, want SIGTERM from the cancel", e)
	}
	// Stop runs from the watcher; a later Stop returns the same.
	if e2 := p.Stop(0); e2 != e {
		t.Errorf("Stop after cancel gave %+v, want %+v", e2, e)
	}
	assertGone(t, []int{p.Pid()}, append(paths, filepath.Dir(paths[0])))
}

func TestStopAll(t *testing.T) {
	needCgroups(t)
	var ps []*Process
	for i := 0; i < 3; i++ {
		ps = append(ps, start(t, context.Background(), Spec{Name: "all", Argv: []string{"sh", "-c", `trap "" TERM; sleep 60`},
			Limits: cgroup.Spec{MemoryBytes: 64 << 20}}))
	}
	t0 := time.Now()
	StopAll()
	if took := time.Since(t0); took > 5*time.Second {
		t.Errorf("StopAll took %v", took)
	}
	for _, p := range ps {
		// SIGTERM if it came before the trap was set, else SIGKILL.
		if e := p.Exit(); e.Signal == "" || !e.Stopped {
			t.Errorf("%d: %+v", p.Pid(), e)
		}
		assertGone(t, []int{p.Pid()}, p.group.Paths())
	}
}

func TestNoLimits(t *testing.T) {
	p := start(t, context.Background(), Spec{Name: "free", NoLimits: true,
		Argv: []string{"sh", "-c", `trap "" TERM; sleep 60`}})
	if p.CgroupPath() != "" {
		t.Fatalf("no-limits run got cgroup %s", p.CgroupPath())
	}
	time.Sleep(100 * time.Millisecond)
	st, err := p.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Usage <= 0 || st.Peak < st.Usage || st.Limit != -1 {
		t.Errorf("stats %+v: want RSS as usage, peak >= usage, no limit", st)
	}
	e := p.Stop(100 * time.Millisecond)
	if e.Signal != "SIGKILL" || !e.Stopped {
		t.Errorf("exit %+v", e)
	}
	assertGone(t, []int{p.Pid()}, nil)
}

func TestStartErrors(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{}, "no command"},
		{Spec{Argv: []string{"no-such-program-jvmfit"}, NoLimits: true}, "PATH"},
		{Spec{Argv: []string{"./nope"}, Dir: t.TempDir(), NoLimits: true}, "nope"},
	} {
		_, err := Start(context.Background(), c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: got %v, want one line about %q", c.spec, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, Spec{Argv: []string{"true"}, NoLimits: true}); err == nil {
		t.Error("started with a cancelled context")
	}
}

func TestBadLimitsLeaveNothing(t *testing.T) {
	needCgroups(t)
	_, err := Start(context.Background(), Spec{Name: "badset", Argv: []string{"true"},
		Limits: cgroup.Spec{MemoryBytes: 64 << 20, CPUSet: "4000"}})
	if err == nil || !strings.Contains(err.Error(), "cpuset") {
		t.Fatalf("got %v", err)
	}
	if Live() != 0 {
		t.Errorf("%d processes registered", Live())
	}
}
