//go:build linux

package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// grpWrite writes one value to an interface file that must exist. The file
// is not created: on a real cgroupfs a missing file means a missing
// controller, which must be reported, not papered over.
func grpWrite(dir, file, value string) error {
	p := filepath.Join(dir, file)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", p, err)
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write %q to %s: %w", value, p, err)
	}
	return nil
}

// grpWriteOptional writes value when the file exists (memsw needs swap
// accounting, swappiness is refused under some parents).
func grpWriteOptional(dir, file, value string) error {
	if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
		return nil
	}
	return grpWrite(dir, file, value)
}

func grpReadString(dir, file string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	return strings.TrimSpace(string(b)), err
}

func grpReadProcs(dir string) ([]int, error) {
	s, err := grpReadString(dir, "cgroup.procs")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, f := range strings.Fields(s) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out, nil
}

// grpKillProcs SIGKILLs what cgroup.procs lists until it is empty: a
// process may fork between the read and the kill, so one pass is not enough.
func grpKillProcs(dir string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		pids, err := grpReadProcs(dir)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v still in %s after SIGKILL", pids, dir)
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// grpRmdir removes dir, retrying while the kernel still counts exiting
// tasks (EBUSY). A missing dir is success.
func grpRmdir(dir string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Rmdir(dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("cannot remove cgroup %s: %v", dir, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
