//go:build linux

package hsperf

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// PathFor is where the JVM with this pid keeps its perf data:
// /tmp/hsperfdata_<user>/<pid>, the user being the owner of the process. When
// the owner cannot be found (process gone, no passwd entry) it assumes the
// current user.
func PathFor(pid int) string {
	return filepath.Join(tempDir, "hsperfdata_"+ownerName(pid), strconv.Itoa(pid))
}

// HotSpot always uses /tmp on Linux, whatever TMPDIR says; so do we.
const tempDir = "/tmp"

func ownerName(pid int) string {
	uid := os.Getuid()
	if fi, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			uid = int(st.Uid)
		}
	}
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	if uid == os.Getuid() {
		if name := os.Getenv("USER"); name != "" {
			return name
		}
	}
	return strconv.Itoa(uid)
}
