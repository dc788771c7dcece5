//go:build linux

package docker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/owner"
)

// swept says whether a container with these labels goes: this owner's
// run whose process is gone, or anyone's older than Stale. A container
// without them (an older jvmfit's, labelled with its pid only) is left to
// its owner: docker rm it by hand.
func (s *Sandbox) swept(ownerID, process, created string) bool {
	p, ok := owner.Parse(process)
	if ok && p == owner.Self() {
		return false // this run's: Close removes them
	}
	if t, err := strconv.ParseInt(created, 10, 64); err == nil && s.Stale > 0 &&
		time.Since(time.Unix(t, 0)) > s.Stale {
		return true
	}
	return ok && ownerID != "" && ownerID == s.Owner && p.Gone()
}

// Sweep removes the containers that a jvmfit killed before its Stop left
// behind: only those of this Sandbox's owner whose run's process is
// certainly gone (owner.Proc.Gone), and, with Stale, anyone's created
// longer ago than that. A pid alone never decides: on a shared daemon
// (a mounted docker.sock, DOCKER_HOST) another jvmfit's pid, counted in
// its own PID namespace or on its own machine, may look dead here while
// its trial runs. Then it removes the empty cgroup directories of dead
// jvmfits' sub-trees. It returns the removed containers' names.
func (s *Sandbox) Sweep(ctx context.Context) ([]string, error) {
	f := func(key string) string { return s.Engine.psLabel(key) }
	out, err := s.Engine.Run(ctx, nil, "ps", "--all", "--filter", "label="+LabelPid,
		"--format", strings.Join([]string{"{{.ID}}", "{{.Names}}", f(LabelOwner), f(LabelProcess), f(LabelCreated)}, "|"))
	if err != nil {
		return nil, fmt.Errorf("cannot list jvmfit's containers: %w", err)
	}
	var removed []string
	var first error
	for _, line := range strings.Split(out, "\n") {
		c := strings.Split(strings.TrimSpace(line), "|")
		if len(c) != 5 || !s.swept(c[2], c[3], c[4]) {
			continue
		}
		if _, err := s.Engine.Run(ctx, nil, "rm", "--force", c[0]); err != nil {
			first = errors.Join(first, err)
			continue
		}
		removed = append(removed, c[1])
	}
	dead := map[int]bool{}
	// A jvmfit killed after its containers were gone leaves no label to
	// find, only its sub-tree, which the engine made in every hierarchy,
	// the named ones (systemd, unified) that internal/cgroup never sees
	// included.
	for _, pid := range s.Tree.deadPids(s.pid) {
		dead[pid] = true
	}
	if s.Engine.IsPodman() {
		sweepPodmanDirs(ctx, s.Engine, os.TempDir(), s.pid)
	}
	for pid := range dead {
		s.Tree.removeDirs(pid)
	}
	return removed, first
}

// deadPids are the pids of the jvmfit-<pid> sub-trees beside this one, in
// any hierarchy, whose process is gone.
func (t Tree) deadPids(self int) []int {
	var pids []int
	for _, root := range t.roots() {
		dirs, _ := filepath.Glob(filepath.Join(root, t.holder(), "jvmfit-*"))
		for _, d := range dirs {
			name := strings.TrimSuffix(filepath.Base(d), ".slice")
			pid, err := strconv.Atoi(strings.TrimPrefix(name, "jvmfit-"))
			if err == nil && pid != self && !cgroup.PidAlive(pid) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// Close removes this jvmfit's container sub-tree in every cgroup
// hierarchy, once its containers are gone.
func (s *Sandbox) Close() {
	s.Tree.removeDirs(s.pid)
	if s.Engine.Dir != "" {
		os.RemoveAll(s.Engine.Dir)
	}
}

// removeDirs removes pid's sub-tree (jvmfit-<pid>/docker and jvmfit-<pid>,
// or the slice jvmfit-<pid>.slice) in every hierarchy the engine made it
// in, and then jvmfit.slice if that is left empty. rmdir fails on a cgroup
// that still has children or processes, so a live group is never touched.
func (t Tree) removeDirs(pid int) {
	if t.systemd() {
		stopSlice(t.entry(pid))
	}
	for _, root := range t.roots() {
		dir := filepath.Join(root, t.holder(), t.entry(pid))
		if !t.systemd() {
			rmdirSoon(filepath.Join(dir, "docker"))
		}
		// No wait here: EBUSY is also what a cgroup with children (the
		// plain trials' groups of internal/cgroup) answers.
		_ = syscall.Rmdir(dir)
		t.removeOwn(root)
	}
}

// rmdirSoon removes an empty cgroup directory, waiting up to a second for
// a just-removed container's cgroup below it to go (EBUSY meanwhile).
func rmdirSoon(dir string) {
	for i := 0; i < 20; i++ {
		if err := syscall.Rmdir(dir); !errors.Is(err, syscall.EBUSY) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
