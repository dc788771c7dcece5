package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// smallDisk mounts a tmpfs of size bytes in a test directory, unmounted
// when the test ends.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	os.Mkdir(dir, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "jvmfit-test", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
			exec.Command("umount", "-l", dir).Run()
		}
	})
	return dir
}

// fillDisk writes a file in dir until the disk is full.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", dir, err)
			}
			return p
		}
	}
}

// errorLines are stderr's lines that jvmfit's error handler wrote.
func errorLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "jvmfit: ") {
			out = append(out, l)
		}
	}
	return out
}

// A full disk under --db: the run that cannot store says so in one line and
// exits 1, and the trials stored before are intact and readable.
func TestFullDiskUnderTheDatabase(t *testing.T) {
	needRootRun(t)
	desc := runFixture(t, "serve", "30s")
	disk := smallDisk(t, "4m")
	db := filepath.Join(disk, "t.db")
	base := []string{"run", "--app", desc, "--memory", "256Mi", "--java", java17, "--db", db, "--duration", "1s"}
	if _, stderr, code := run(t, nil, base...); code != 0 {
		t.Fatalf("first trial exit %d\n%s", code, stderr)
	}
	// The disk fills while a trial runs: it cannot be stored at its end.
	var filler string
	stderr, code := runUntil(t, base, "measure", func() { filler = fillDisk(t, disk) })
	lines := errorLines(stderr)
	t.Logf("disk filled during the trial: exit %d: %q", code, lines)
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "could not be stored in "+db) || !strings.Contains(lines[0], "full") {
		t.Errorf("disk filled during the trial: exit %d, want 1 and one line saying it was not stored:\n%s", code, stderr)
	}
	// A run on the full disk stops before its trial.
	_, stderr, code = run(t, nil, base...)
	lines = errorLines(stderr)
	if strings.Contains(stderr, "ready in") {
		t.Errorf("a trial ran on a full disk:\n%s", stderr)
	}
	t.Logf("run on a full disk: exit %d: %q", code, lines)
	if code != 1 && code != 2 || len(lines) != 1 || !strings.Contains(lines[0], db) || !strings.Contains(lines[0], "full") {
		t.Errorf("run on a full disk: exit %d, want 1 or 2 and one line naming %s and the full disk:\n%s", code, db, stderr)
	}
	sweep := []string{"sweep", "--app", desc, "--java", java17, "--db", db, "--memory", "256Mi", "--rate", "10", "--duration", "1s"}
	t0 := time.Now()
	_, stderr, code = run(t, nil, sweep...)
	lines = errorLines(stderr)
	t.Logf("sweep on a full disk: exit %d after %v: %q", code, time.Since(t0).Round(10*time.Millisecond), lines)
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], db) || !strings.Contains(lines[0], "full") {
		t.Errorf("sweep on a full disk: exit %d, want 1 and one line naming %s and the full disk:\n%s", code, db, stderr)
	}
	if !strings.Contains(stderr, "free space there or give another --db path") {
		t.Errorf("the line does not say what to do: %s", stderr)
	}
	// Once there is room again, the first trial reads back whole.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	defer st.Close()
	rs, err := st.Trials(store.Filter{})
	if err != nil || len(rs) != 1 || rs[0].Verdict != trial.OK || len(rs[0].Series) == 0 {
		t.Fatalf("stored trials %d (%v), want the first one with its series", len(rs), err)
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var check string
	if err := conn.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check %q %v", check, err)
	}
}

// runUntil runs jvmfit with args, calls at() once a progress line starts
// with marker, and returns its stderr and exit code.
func runUntil(t *testing.T, args []string, marker string, at func()) (string, int) {
	t.Helper()
	cmd := jvmfitCmd(t, nil, args...)
	pr, pw, _ := os.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	var errb bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Split(scanCRLF)
		seen := false
		for sc.Scan() {
			errb.WriteString(sc.Text() + "\n")
			if !seen && strings.HasPrefix(strings.TrimLeft(sc.Text(), "\x1b[K"), marker) {
				seen = true
				at()
			}
		}
	}()
	err := cmd.Wait()
	<-done
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return errb.String(), code
}
