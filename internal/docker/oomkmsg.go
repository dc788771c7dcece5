//go:build linux

package docker

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// The kernel log is the third evidence of a Podman container's OOM kill,
// after the cgroup's oom_kill counter (sampled, so it can be missed) and
// its OOM notifications (podman_oomevents.go: registered only once the
// container runs, so a kill in its first milliseconds comes before them).
// The OOM killer writes one record per kill, before it sends SIGKILL:
//
//	oom-kill:constraint=CONSTRAINT_MEMCG,...,oom_memcg=/a/b/libpod-<id>,task_memcg=...,task=java,pid=7561,uid=0
//
// oom_memcg is the group whose limit was hit, as a path from the root of
// the memory hierarchy; a container's cgroup path holds its id, so a
// record naming it is this container's and no other's. The record stays
// in the ring buffer after the cgroup is gone, so nothing has to be read
// in time. Reading /dev/kmsg needs root (CAP_SYSLOG where dmesg_restrict
// is set); where it cannot be read the other two evidences stand.

// kmsgPath is the kernel log device.
const kmsgPath = "/dev/kmsg"

// kernelLoggedOOM says whether the kernel log records an OOM kill in the
// memory cgroup directory dir, for Podman's containers (Docker sets
// OOMKilled itself); false where the log cannot be read.
func (e Engine) kernelLoggedOOM(dir string) bool {
	if !e.IsPodman() {
		return false
	}
	memcg, err := memcgPath(dir)
	if err != nil {
		return false
	}
	found, err := kmsgOOM(kmsgPath, memcg)
	return err == nil && found
}

// memcgPath is memory cgroup directory dir as the kernel names it: the
// path below the memory hierarchy's mount (whose root is the hierarchy's,
// as Tree.Parent assumes too).
func memcgPath(dir string) (string, error) {
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		return "", err
	}
	mount := h.Mounts["memory"]
	if mount == "" || !strings.HasPrefix(dir, mount+"/") {
		return "", fmt.Errorf("%s is not below the memory hierarchy's mount %q", dir, mount)
	}
	return strings.TrimPrefix(dir, mount), nil
}

// kmsgOOM reads every record the kernel log device path holds, without
// waiting for new ones, and says whether one is an OOM kill in memcg.
func kmsgOOM(path, memcg string) (bool, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, fmt.Errorf("cannot read the kernel log: %w", &os.PathError{Op: "open", Path: path, Err: err})
	}
	defer unix.Close(fd)
	return scanKmsg(func(b []byte) (int, error) { return unix.Read(fd, b) }, memcg)
}

// scanKmsg reads /dev/kmsg records through read (one record a call) until
// the log has no more, and says whether one is an OOM kill in memcg.
func scanKmsg(read func([]byte) (int, error), memcg string) (bool, error) {
	// A record is at most about 1 KiB of text plus its dictionary; a
	// smaller buffer makes the read fail with EINVAL.
	buf := make([]byte, 16<<10)
	for {
		n, err := read(buf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return false, nil // the end of the log
		case errors.Is(err, unix.EPIPE):
			continue // records overwritten under us; the next is the oldest left
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return false, fmt.Errorf("cannot read the kernel log: %w", err)
		case n == 0:
			return false, nil
		}
		if got, ok := oomMemcg(buf[:n]); ok && got == memcg {
			return true, nil
		}
	}
}

// oomMemcg is the oom_memcg of a /dev/kmsg record of an OOM kill
// ("PRIO,SEQ,USEC,FLAGS;oom-kill:...,oom_memcg=PATH,...").
func oomMemcg(record []byte) (string, bool) {
	_, msg, ok := bytes.Cut(record, []byte(";"))
	if !ok {
		return "", false
	}
	if i := bytes.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] // the dictionary lines (" KEY=value") follow
	}
	if !bytes.HasPrefix(msg, []byte("oom-kill:")) {
		return "", false
	}
	for _, field := range strings.Split(string(msg[len("oom-kill:"):]), ",") {
		if v, ok := strings.CutPrefix(field, "oom_memcg="); ok {
			return v, true
		}
	}
	return "", false
}
