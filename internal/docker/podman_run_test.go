//go:build linux

package docker_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/owner"
)

// TestPodmanOOMKilledThoughInspectSaysNot: filecache's JVM, its heap of
// 96 MiB pre-touched (-Xms96m -XX:+AlwaysPreTouch), cannot start in 64Mi:
// the kernel kills it within a second. Podman 4 says so nowhere
// (State.OOMKilled stays false, the bug fixed in Podman 5), yet the
// sandbox reports an OOM kill, from exit 137 and the kernel's own evidence
// (the cgroup's oom_kill counter, its OOM notifications, the kernel log).
// Both are asserted, so this test shows the bug it works around.
//
// Without the pre-touch filecache at 64Mi came to the limit and stayed
// there, reclaiming its page cache, for 23 s in one run and over 120 s in
// another before the kill: its start-up peak does not force one.
func TestPodmanOOMKilledThoughInspectSaysNot(t *testing.T) {
	needPodman(t, filecacheImage)
	s := podmanSandbox(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-oom", Image: filecacheImage, MemoryBytes: 64 * mi, CPUs: 1,
		Args: []string{"--server.port=" + strconv.Itoa(freePort(t))},
		Env:  []string{"JAVA_TOOL_OPTIONS=-Xms96m -Xmx96m -XX:+AlwaysPreTouch"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("filecache with a pre-touched heap of 96 MiB still runs after 60 s at 64Mi")
	}
	if e := p.Exit(); !e.OOMKilled || e.Signal != "SIGKILL" {
		t.Errorf("exit %+v (oom_kill counter seen at %d), want OOM-killed (SIGKILL)", e, p.OOMKillsSeen())
	}
	// The kill is too early for the sampled counter to be sure to see it;
	// the kernel log, read after the cgroup is gone, must name it.
	if !docker.KernelLoggedOOM(podman, p.CgroupDir()) {
		t.Errorf("no OOM kill of %s in the kernel log", p.CgroupDir())
	}
	// The JVM is often gone by the time Start looks for its cgroup; then
	// the cgroup is podman's libpod-<id> still, not what the dead
	// process's /proc/<pid>/cgroup says ("/").
	if want := s.Tree.Mount + s.Tree.Parent + "/libpod-" + p.ID(); p.CgroupDir() != want {
		t.Errorf("container cgroup %s, want %s", p.CgroupDir(), want)
	}
	// What podman itself says, before Stop removes the container.
	st, err := podman.Run(context.Background(), nil, "inspect", "--format", "{{.State.ExitCode}} {{.State.OOMKilled}}", p.ID())
	if err != nil {
		t.Fatal(err)
	}
	if major := podmanMajor(t); major < 5 && st != "137 false" {
		t.Errorf("podman %d inspect says %q; want \"137 false\" (its OOMKilled bug; if fixed, this workaround's test needs updating)", major, st)
	} else {
		t.Logf("podman %d inspect: exit code and OOMKilled %q", major, st)
	}
	id := p.ID()
	p.Stop(0)
	if err := p.StopErr(); err != nil {
		t.Error(err)
	}
	if ids := podmanContainers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after Stop: %v", ids)
	}
	if left := podmanCgroupsLeft(t, s.Tree, id); len(left) != 0 {
		t.Errorf("cgroups left after Stop: %v", left)
	}
	// conmon writes "oom" into the directory it inherits; the sandbox
	// gives it its own, so none lands in ours.
	if _, err := os.Stat("oom"); err == nil {
		os.Remove("oom")
		t.Error("an \"oom\" file was left in the working directory")
	}
}

// TestPodmanOKAt256Mi: at 256Mi filecache answers; its cgroup is podman's
// libpod-<id> below jvmfit's sub-tree with memory+swap equal to memory;
// Stop ends it with SIGTERM and removes it and its cgroups.
func TestPodmanOKAt256Mi(t *testing.T) {
	needPodman(t, filecacheImage)
	s := podmanSandbox(t)
	port := freePort(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-ok", Image: filecacheImage, MemoryBytes: 256 * mi, CPUs: 1,
		Args: []string{"--server.port=" + strconv.Itoa(port)},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	if err := waitReady(p, fmt.Sprintf("http://127.0.0.1:%d/actuator/health", port), 120*time.Second); err != nil {
		t.Fatal(err)
	}
	dir := p.CgroupDir()
	want := s.Tree.Mount + s.Tree.Parent + "/libpod-" + p.ID()
	if dir != want {
		t.Errorf("container cgroup %s, want %s (below jvmfit's sub-tree)", dir, want)
	}
	limit := readCgroupInt(t, dir+"/memory.limit_in_bytes")
	memsw := readCgroupInt(t, dir+"/memory.memsw.limit_in_bytes")
	if limit != 256*mi || memsw != limit {
		t.Errorf("memory.limit_in_bytes %d, memory.memsw.limit_in_bytes %d; want both %d", limit, memsw, 256*mi)
	}
	if peak, err := p.MemoryPeak(); err != nil || peak < 32*mi || peak > 256*mi {
		t.Errorf("memory peak %d, %v; want between 32 MiB and the 256 MiB limit", peak, err)
	}
	id := p.ID()
	e := p.Stop(10 * time.Second)
	if e.OOMKilled || e.Signal == "SIGKILL" {
		t.Errorf("stopped with SIGTERM, got %+v", e)
	}
	if err := p.StopErr(); err != nil {
		t.Error(err)
	}
	if ids := podmanContainers(t, os.Getpid()); len(ids) != 0 {
		t.Errorf("containers left after Stop: %v", ids)
	}
	if left := podmanCgroupsLeft(t, s.Tree, id); len(left) != 0 {
		t.Errorf("cgroups left after Stop: %v", left)
	}
}

// TestPodmanSweep: Sweep reads podman's labels too (its ps has no .Label):
// the owner's container whose run is gone goes, a live run's stays.
func TestPodmanSweep(t *testing.T) {
	needPodman(t, jdk17Image)
	s := podmanSandbox(t)
	dead, live := deadPid(t), os.Getpid()
	mk := func(pid int) string {
		p := owner.Self()
		if pid != p.Pid {
			p.Pid = pid
		}
		id, err := podman.Run(context.Background(), nil, "create", "--label", docker.LabelPid+"="+strconv.Itoa(pid),
			"--label", docker.LabelOwner+"="+s.Owner, "--label", docker.LabelProcess+"="+p.String(), jdk17Image, "java", "-version")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = podman.Run(context.Background(), nil, "rm", "--force", id) })
		return id
	}
	deadID, liveID := mk(dead), mk(live)
	removed, err := s.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Not len(removed): a podman trial in a test binary running beside
	// this one may sweep the dead pid's container first.
	if ids := podmanContainers(t, dead); len(ids) != 0 {
		t.Errorf("the dead jvmfit's container %.12s is still there (Sweep removed %v)", deadID, removed)
	}
	if ids := podmanContainers(t, live); len(ids) != 1 {
		t.Errorf("the live process's container %.12s was removed", liveID)
	}
}

// TestPodmanOOMKilledAtStart: at 7Mi the JVM is killed about a second
// into its start, soon after Start returns, at times before the counter
// is sampled or the OOM notifications are registered; the kill is still
// reported (the kernel log has it), and the cgroup was podman's
// libpod-<id>.
func TestPodmanOOMKilledAtStart(t *testing.T) {
	needPodman(t, filecacheImage)
	s := podmanSandbox(t)
	p, err := s.Start(context.Background(), docker.Launch{
		Name: "filecache-oom-start", Image: filecacheImage, MemoryBytes: 7 * mi, CPUs: 1, Network: "none",
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("filecache still runs after 60 s at 7Mi")
	}
	if e := p.Exit(); !e.OOMKilled || e.Signal != "SIGKILL" {
		t.Errorf("exit %+v (oom_kill counter seen at %d, cgroup %s), want OOM-killed (SIGKILL)", e, p.OOMKillsSeen(), p.CgroupDir())
	}
	if want := s.Tree.Mount + s.Tree.Parent + "/libpod-" + p.ID(); p.CgroupDir() != want {
		t.Errorf("container cgroup %s, want %s", p.CgroupDir(), want)
	}
}

// TestPodmanImageJDK: the JDK read from an image in podman's storage is the
// image's: 25 from the Temurin 25 base, while the host's default is 17.
func TestPodmanImageJDK(t *testing.T) {
	needPodman(t, jdk25Image)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	j, err := docker.ImageJDK(ctx, podman, jdk25Image)
	if err != nil {
		t.Fatal(err)
	}
	if j.Version != 25 || j.Vendor == "" || j.Vendor == "unknown" {
		t.Errorf("JDK %d from %q, want 25 and a vendor", j.Version, j.Vendor)
	}
	// The container it created to copy the release file out is gone.
	img, err := podman.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", jdk25Image)
	if err != nil {
		t.Fatal(err)
	}
	// ancestor= takes the id (podman does not match a short NAME:TAG there).
	left, err := podman.Run(ctx, nil, "ps", "--all", "--quiet", "--filter", "ancestor="+img)
	if err != nil || left != "" {
		t.Errorf("containers of %s left: %q (%v)", jdk25Image, left, err)
	}
}
