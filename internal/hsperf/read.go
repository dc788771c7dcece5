package hsperf

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Retries for a file caught while the JVM adds entries or is still starting.
const (
	readAttempts = 10
	readPause    = 10 * time.Millisecond
)

// ReadFile reads and parses a perf-data file. The JVM writes it through shared
// memory while we read, so a read that does not parse is retried a few times;
// only the last error is returned. A missing file is returned at once
// (errors.Is(err, fs.ErrNotExist)), as is a file still marked not accessible
// after the retries (ErrNotReady).
func ReadFile(path string) (*Snapshot, error) {
	var last error
	for i := 0; i < readAttempts; i++ {
		if i > 0 {
			time.Sleep(readPause)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		s, err := Parse(b)
		if err == nil {
			return s, nil
		}
		last = err
	}
	if errors.Is(last, ErrNotReady) {
		return nil, last
	}
	return nil, fmt.Errorf("%s: %w", path, last)
}

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
