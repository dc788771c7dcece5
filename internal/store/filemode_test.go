//go:build linux

package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDatabaseFileMode: the database and its WAL files are readable by
// their owner alone, whatever the umask (here none at all): they hold
// every trial's command line and environment.
func TestDatabaseFileMode(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "jvmfit.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.NewExperiment("modes", "minmem", nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v under umask 0: want 0600", filepath.Base(p), st.Mode().Perm())
		}
	}
}
