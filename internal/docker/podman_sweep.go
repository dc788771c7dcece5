//go:build linux

package docker

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// sweepPodmanDirs removes the podman working directories in tmp that a
// dead jvmfit left: named jvmfit-podman-<pid>-<random>, pid not alive and
// not self, and a real directory owned by this user. Another user's
// directory of that name is not ours to remove, whatever its pid says.
// One that names an image the dead jvmfit had mounted (mountMarker) gets
// the image unmounted first.
func sweepPodmanDirs(ctx context.Context, e Engine, tmp string, self int) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, podmanDirPrefix+"*-*"))
	for _, d := range dirs {
		pidText, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), podmanDirPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == self || cgroup.PidAlive(pid) || !ownDir(d) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(d, mountedImageFile)); err == nil {
			if img := strings.TrimSpace(string(b)); img != "" {
				_, _ = e.Run(ctx, nil, "image", "unmount", img)
			}
		}
		os.RemoveAll(d)
	}
}

// ownDir is true for a directory, not a link to one, owned by the
// effective user.
func ownDir(p string) bool {
	st, err := os.Lstat(p)
	if err != nil || !st.IsDir() {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
