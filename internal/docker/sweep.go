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
		dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "jvmfit-podman-*"))
		for _, d := range dirs {
			pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "jvmfit-podman-"))
			if err == nil && pid != s.pid && !cgroup.PidAlive(pid) {
				os.RemoveAll(d)
			}
		}
	}
	for pid := range dead {
		s.Tree.removeDirs(pid)
	}
	return removed, first
}

// deadPids are the pids of the jvmfit-<pid> directories below the own
// cgroup, in any hierarchy, whose process is gone.
func (t Tree) deadPids(self int) []int {
	base := filepath.Dir(filepath.Dir(t.Parent))
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(t.Mount), "*", base, "jvmfit-*"))
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "jvmfit-"))
		if err == nil && pid != self && !cgroup.PidAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Close removes this jvmfit's container sub-tree (jvmfit-<pid>/docker) in
// every cgroup hierarchy, once its containers are gone.
func (s *Sandbox) Close() {
	s.Tree.removeDirs(s.pid)
	if s.Engine.Dir != "" {
		os.RemoveAll(s.Engine.Dir)
	}
}

// removeDirs removes pid's jvmfit-<pid>/docker directories, and then
// jvmfit-<pid> itself, in every hierarchy the engine made them in. rmdir
// fails on a cgroup that still has children or processes, so a live
// group is never touched.
func (t Tree) removeDirs(pid int) {
	base := filepath.Dir(filepath.Dir(t.Parent)) // the own cgroup, above jvmfit-<pid>
	rel := filepath.Join(base, "jvmfit-"+strconv.Itoa(pid))
	roots, _ := filepath.Glob(filepath.Join(filepath.Dir(t.Mount), "*"))
	for _, root := range roots {
		rmdirSoon(filepath.Join(root, rel, "docker"))
		// No wait here: EBUSY is also what a cgroup with children (the
		// plain trials' groups of internal/cgroup) answers.
		_ = syscall.Rmdir(filepath.Join(root, rel))
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
