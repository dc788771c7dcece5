package clitest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/store"
)

// ExperimentRun runs a short real experiment with its own TMPDIR and
// checks it left nothing there: app logs belong next to the database.
func ExperimentRun(t *testing.T, args ...string) (stdout string) {
	t.Helper()
	tmp := t.TempDir()
	t0 := time.Now()
	out, stderr, code := Run(t, []string{"TMPDIR=" + tmp}, args...)
	t.Logf("%s: exit %d in %s", args[0], code, time.Since(t0).Round(100*time.Millisecond))
	if code != 0 {
		t.Fatalf("%s exit %d\nstdout:\n%s\nstderr:\n%s", args[0], code, out, stderr)
	}
	// stderr is a pipe here, not a terminal: progress is plain lines.
	if strings.ContainsAny(stderr, "\r\x1b") || !strings.Contains(stderr, "[1") {
		t.Errorf("%s: progress on a pipe has control characters or no trial lines:\n%q", args[0], stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		names := []string{}
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("%s left %v in TMPDIR", args[0], names)
	}
	return out
}

// NoExperiments fails unless the database is absent or holds no
// experiment.
func NoExperiments(t *testing.T, db, name string) {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if es, _ := st.Experiments(); len(es) != 0 {
		t.Errorf("%s: %d experiments stored for a usage error", name, len(es))
	}
}

// OpenStore opens a database the test reads, closed at its end.
func OpenStore(t *testing.T, db string) *store.Store {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
