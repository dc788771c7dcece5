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
)

// Sweep removes the containers that a jvmfit killed before its Stop left
// behind: only those labelled with a jvmfit pid that is not alive (never
// this process's, never a running jvmfit's), then the empty cgroup
// directories of that pid's sub-tree. It returns the removed containers'
// names.
func (s *Sandbox) Sweep(ctx context.Context) ([]string, error) {
	out, err := s.Engine.Run(ctx, nil, "ps", "--all", "--filter", "label="+LabelPid,
		"--format", "{{.ID}} {{.Names}} "+s.Engine.psLabel(LabelPid))
	if err != nil {
		return nil, fmt.Errorf("cannot list jvmfit's containers: %w", err)
	}
	var removed []string
	var first error
	dead := map[int]bool{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		pid, err := strconv.Atoi(f[2])
		if err != nil || pid == s.pid || cgroup.PidAlive(pid) {
			continue
		}
		dead[pid] = true
		if _, err := s.Engine.Run(ctx, nil, "rm", "--force", f[0]); err != nil {
			first = errors.Join(first, err)
			continue
		}
		removed = append(removed, f[1])
	}
	// A jvmfit killed after its containers were gone leaves no label to
	// find, only its sub-tree, which the engine made in every hierarchy,
	// the named ones (systemd, unified) that internal/cgroup never sees
	// included.
	for _, pid := range s.Tree.deadPids(s.pid) {
		dead[pid] = true
	}
	if s.Engine.IsPodman() {
		sweepPodmanDirs(os.TempDir(), s.pid)
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
