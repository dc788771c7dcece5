//go:build linux

package service

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// PostgreSQL keeps a small System V segment as a lock against two servers
// on one data directory. A server killed by the OOM killer or SIGKILL
// leaves it behind, and the kernel keeps it until someone removes it.

// shmSegment reads the segment's key and id from postmaster.pid (line 7);
// ok is false when there is none (the server never got that far).
func shmSegment(dataDir string) (key, id int, ok bool) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 7 {
		return 0, 0, false
	}
	f := strings.Fields(lines[6])
	if len(f) != 2 {
		return 0, 0, false
	}
	key, err1 := strconv.Atoi(f[0])
	id, err2 := strconv.Atoi(f[1])
	return key, id, err1 == nil && err2 == nil
}

// removeShm removes the segment once no process is attached, and only if
// it still carries the key the server wrote (ids are reused).
func removeShm(key, id int) {
	var ds unix.SysvShmDesc
	if _, err := unix.SysvShmCtl(id, unix.IPC_STAT, &ds); err != nil {
		return
	}
	if int(ds.Perm.Key) != key || ds.Nattch != 0 {
		return
	}
	_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
}
