package trial

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// The app's temporary directory is named for the jvmfit that made it
// (jvmfit-app-<pid>-<random>), so that what a killed jvmfit left behind
// can be told from what a running one still uses.
const appTmpPrefix = "jvmfit-app-"

func makeAppTmp() (string, error) {
	sweepAppTmpOnce.Do(func() { sweepAppTmp(os.TempDir(), os.Getpid()) })
	return os.MkdirTemp("", appTmpPrefix+strconv.Itoa(os.Getpid())+"-")
}

var sweepAppTmpOnce sync.Once

// sweepAppTmp removes the app directories of jvmfits that are gone: a
// SIGKILLed jvmfit runs no cleanup, and its trial's directory (Tomcat's
// work files, uploads) would stay in the temporary directory for good.
func sweepAppTmp(dir string, self int) {
	dirs, _ := filepath.Glob(filepath.Join(dir, appTmpPrefix+"*-*"))
	for _, d := range dirs {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(d), appTmpPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == self || cgroup.PidAlive(pid) {
			continue
		}
		os.RemoveAll(d)
	}
}
