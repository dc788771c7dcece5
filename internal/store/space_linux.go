//go:build linux

package store

import "syscall"

// freeSpace is how many bytes an unprivileged writer may still use on the
// file system holding dir; ok is false when it cannot be read.
func freeSpace(dir string) (int64, bool) {
	var fs syscall.Statfs_t
	if syscall.Statfs(dir, &fs) != nil {
		return 0, false
	}
	return int64(fs.Bavail) * fs.Bsize, true
}
