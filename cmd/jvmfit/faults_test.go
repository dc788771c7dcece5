package main

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/store"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// storedDB writes a database holding one experiment of n trials, each with
// a series long enough to spread the file over many pages.
func storedDB(t *testing.T, path string, n int) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := st.NewExperiment("kept", store.KindSweep, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		r := &trial.Result{Verdict: trial.OK, Failed: []string{}, StartedAt: time.Now(), EndedAt: time.Now(),
			Spec: trial.Spec{AppName: "kept", JVM: "default", JDKVersion: 17, MemoryBytes: int64(64+i) << 20, CPUs: 1}}
		for s := 0; s < 400; s++ {
			r.Series = append(r.Series, probe.Sample{At: time.Duration(s) * 250 * time.Millisecond, CgroupUsage: int64(s) << 16})
		}
		if _, err := st.SaveTrial(id, r); err != nil {
			t.Fatal(err)
		}
	}
}

// A corrupt database, garbage or a real one cut short, gets one clear line
// and exit 2 from every command that opens it, and the file is left byte
// for byte as it was.
func TestCorruptDatabase(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	junk := make([]byte, 64<<10)
	rand.Read(junk)
	os.WriteFile(garbage, junk, 0o644)
	real := filepath.Join(dir, "real.db")
	storedDB(t, real, 8)
	whole, _ := os.ReadFile(real)
	truncated := filepath.Join(dir, "truncated.db")
	os.WriteFile(truncated, whole[:len(whole)/2], 0o644)
	for _, db := range []string{garbage, truncated} {
		before, _ := os.ReadFile(db)
		for _, args := range [][]string{
			{"report", "--db", db},
			{"report", "--db", db, "--list"},
			{"profile", "--db", db, "--trial", "1"},
		} {
			out, stderr, code := run(t, nil, args...)
			line := strings.TrimSpace(stderr)
			t.Logf("%s %s: exit %d: %s", filepath.Base(db), args[0], code, line)
			if code != 1 && code != 2 || strings.Count(line, "\n") != 0 || !strings.Contains(line, db) ||
				!strings.Contains(line, "database") || !strings.Contains(line, "another --db") || out != "" {
				t.Errorf("%s %v: exit %d, stdout %q, stderr:\n%s", filepath.Base(db), args, code, out, stderr)
			}
			if left, _ := filepath.Glob(db + "-*"); len(left) != 0 {
				t.Errorf("%s %v left %v", filepath.Base(db), args, left)
			}
			after, err := os.ReadFile(db)
			if err != nil || !bytes.Equal(before, after) {
				t.Errorf("%s %v changed the file (%d -> %d bytes, %v)", filepath.Base(db), args, len(before), len(after), err)
			}
		}
	}
}
