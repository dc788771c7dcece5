//go:build linux

package trial

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAppLogFileMode: an app's log, which holds what the app prints (its
// settings, stack traces), is its owner's alone whatever the umask.
func TestAppLogFileMode(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	for _, dir := range []string{t.TempDir(), ""} {
		l, err := openLog(dir, Spec{AppName: "modes", JVM: "default"}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(l.path)
		l.keep = false
		l.close()
		if err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Errorf("app log %s: %v, mode %v under umask 0: want 0600", filepath.Base(l.path), err, st.Mode().Perm())
		}
	}
}
