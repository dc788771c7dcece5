//go:build linux

package docker_test

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/owner"
)

// labelled runs a container of jdk17Image labelled as a jvmfit run of
// owner id by process p made it, created at created, still running
// (PauseAtExit holds the JVM until its file goes), and removes it when
// the test ends.
func labelled(t *testing.T, id string, p owner.Proc, created time.Time) string {
	t.Helper()
	e := docker.Default()
	cid, err := e.Run(context.Background(), nil, "run", "--detach", "--network", "none",
		"--label", docker.LabelPid+"="+strconv.Itoa(p.Pid),
		"--label", docker.LabelOwner+"="+id,
		"--label", docker.LabelProcess+"="+p.String(),
		"--label", docker.LabelCreated+"="+strconv.FormatInt(created.Unix(), 10),
		jdk17Image, "java", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PauseAtExit", "-version")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = e.Run(context.Background(), nil, "rm", "--force", cid) })
	return cid
}

// exists says whether container id is still there.
func exists(t *testing.T, id string) bool {
	t.Helper()
	_, err := docker.Default().Run(context.Background(), nil, "inspect", "--format", "{{.Id}}", id)
	return err == nil
}

// deadProc is a process of this kernel and PID namespace that has ended.
func deadProc(t *testing.T) owner.Proc {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	p := owner.Self()
	p.Pid = cmd.Process.Pid
	return p
}

// Another jvmfit on the same daemon (a CI job in its own container, the
// daemon's socket mounted) runs a trial; its pid means nothing in this PID
// namespace, where it is dead. This jvmfit's sweep leaves the container:
// it is another owner's.
func TestSweepLeavesAnotherOwnersContainer(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	theirs := labelled(t, owner.New(), deadProc(t), time.Now())
	if _, err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !exists(t, theirs) {
		t.Errorf("the sweep removed another owner's running container %.12s", theirs)
	}
}

// The owner's own runs: one whose process is gone goes, one whose process
// is alive (this one, as another jvmfit on the same database would be)
// stays.
func TestSweepRemovesOwnDeadRunsOnly(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	dead := labelled(t, s.Owner, deadProc(t), time.Now())
	self := labelled(t, s.Owner, owner.Self(), time.Now())
	if _, err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if exists(t, dead) {
		t.Errorf("the owner's dead run's container %.12s is still there", dead)
	}
	if !exists(t, self) {
		t.Errorf("a live run's container %.12s was removed", self)
	}
}

// With --sweep-stale, anyone's run older than its age goes, live or not;
// a younger one of another owner stays.
func TestSweepStaleRemovesOldRuns(t *testing.T) {
	need(t, jdk17Image)
	s := sandbox(t)
	s.Stale = time.Hour
	// Runs on another machine, which no process check here can end: only
	// age removes them.
	alive := owner.Proc{Boot: "another-machine", NS: 1, Pid: 1, Start: 1}
	old := labelled(t, owner.New(), alive, time.Now().Add(-2*time.Hour))
	young := labelled(t, owner.New(), alive, time.Now().Add(-time.Minute))
	if _, err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if exists(t, old) {
		t.Errorf("a run two hours old, past --sweep-stale 1h, is still there: %.12s", old)
	}
	if !exists(t, young) {
		t.Errorf("a run a minute old of another owner was removed: %.12s", young)
	}
}
