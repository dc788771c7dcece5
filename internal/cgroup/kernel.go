//go:build linux

package cgroup

import (
	"os"
	"syscall"
)

// kernel is what the group and placement code ask of cgroupfs: make and
// remove a directory, write an interface file. Production talks to the
// real filesystem; fixture tests play a kernel that fills new directories,
// enforces cgroup v2's "no internal processes" rule (EBUSY) and refuses
// writes as a read-only or unwritable cgroupfs does.
type kernel interface {
	Mkdir(dir string) error
	Write(dir, file, value string) error
	Rmdir(dir string) error
	// Writable says whether this process may write in path: EROFS on a
	// read-only mount, EACCES where it lacks the right.
	Writable(path string) error
}

// osKernel is the real cgroupfs.
type osKernel struct{}

func (osKernel) Mkdir(dir string) error              { return os.Mkdir(dir, 0o755) }
func (osKernel) Write(dir, file, value string) error { return grpWrite(dir, file, value) }
func (osKernel) Rmdir(dir string) error              { return syscall.Rmdir(dir) }
func (osKernel) Writable(path string) error          { return syscall.Access(path, 2 /* W_OK */) }
