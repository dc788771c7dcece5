package run

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
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
			out, stderr, code := clitest.Run(t, nil, args...)
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
		t.Fatalf("cannot mount a tmpfs as root: %v %s", err, out)
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
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "30s")
	disk := smallDisk(t, "4m")
	db := filepath.Join(disk, "t.db")
	base := []string{"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--duration", "1s"}
	if _, stderr, code := clitest.Run(t, nil, base...); code != 0 {
		t.Fatalf("first trial exit %d\n%s", code, stderr)
	}
	// The disk fills while a trial runs: it cannot be stored at its end.
	var filler string
	stderr, code := runUntil(t, base, "measure", func(int) { filler = fillDisk(t, disk) })
	lines := errorLines(stderr)
	t.Logf("disk filled during the trial: exit %d: %q", code, lines)
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "could not be stored in "+db) || !strings.Contains(lines[0], "full") {
		t.Errorf("disk filled during the trial: exit %d, want 1 and one line saying it was not stored:\n%s", code, stderr)
	}
	// A run on the full disk stops before its trial.
	_, stderr, code = clitest.Run(t, nil, base...)
	lines = errorLines(stderr)
	if strings.Contains(stderr, "ready in") {
		t.Errorf("a trial ran on a full disk:\n%s", stderr)
	}
	t.Logf("run on a full disk: exit %d: %q", code, lines)
	// Exit 1 as in sweep: a full disk is the machine's error, not a usage error.
	if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], db) || !strings.Contains(lines[0], "full") {
		t.Errorf("run on a full disk: exit %d, want 1 and one line naming %s and the full disk:\n%s", code, db, stderr)
	}
	sweep := []string{"sweep", "--app", desc, "--java", clitest.Java17, "--db", db, "--memory", "256Mi", "--rate", "10", "--duration", "1s"}
	t0 := time.Now()
	_, stderr, code = clitest.Run(t, nil, sweep...)
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

// runUntil runs jvmfit with args, calls at(its pid) once a progress line starts
// with marker, and returns its stderr and exit code.
func runUntil(t *testing.T, args []string, marker string, at func(jvmfitPid int)) (string, int) {
	t.Helper()
	cmd := clitest.Cmd(t, nil, args...)
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
		sc.Split(clitest.ScanCRLF)
		seen := false
		for sc.Scan() {
			errb.WriteString(sc.Text() + "\n")
			if !seen && strings.HasPrefix(strings.TrimLeft(sc.Text(), "\x1b[K"), marker) {
				seen = true
				at(cmd.Process.Pid)
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

// wrappedDescriptor is the fixture server's descriptor with its java
// command line run through sh -c script (which ends in exec "$@").
func wrappedDescriptor(t *testing.T, script string) string {
	t.Helper()
	plain := clitest.RunFixture(t, "serve", "30s")
	dir := filepath.Dir(plain)
	desc := fmt.Sprintf(`name: fixture
command: ["/bin/sh", "-c", %q, "sh", "${java}", "${jvm_options}", "-cp", %q, "Server", "serve", "${port}"]
ready: http://127.0.0.1:${port}/health
ready_timeout: 30s
scenario: light.yaml
`, script, dir)
	p := filepath.Join(dir, "wrapped.yaml")
	os.WriteFile(p, []byte(desc), 0o644)
	return p
}

// An app that ignores SIGTERM, and one whose child left its process group
// (setsid), are killed at the trial's end: the trial is OK, and no process
// and no cgroup is left.
func TestAppThatWillNotGo(t *testing.T) {
	prereq.Root(t)
	for _, c := range []struct {
		name, script string
	}{
		// The ignored TERM is inherited through exec; HotSpot leaves an
		// ignored SIGTERM ignored.
		{"ignores SIGTERM", `trap '' TERM; exec "$@"`},
		{"child in its own session", `setsid sleep 1000.MARK & exec "$@"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			mark := strconv.FormatInt(time.Now().UnixNano()%1000000, 10)
			desc := wrappedDescriptor(t, strings.ReplaceAll(c.script, "MARK", mark))
			marker := "-Djvmfit.faulttest=" + mark
			db := filepath.Join(t.TempDir(), "t.db")
			args := []string{"run", "--app", desc, "--memory", "256Mi", "--java", clitest.Java17, "--db", db, "--duration", "2s", "--jvm", marker}
			var pids []int
			var group string
			t0 := time.Now()
			var tMeasure time.Time
			stderr, code := runUntil(t, args, "measure", func(jvmfitPid int) {
				tMeasure = time.Now()
				pids = append(clitest.PidsWith(marker), clitest.PidsWith("1000."+mark)...)
				group = trialGroup(jvmfitPid)
				if c.name == "ignores SIGTERM" {
					// Proof that it ignores TERM: it is still there after one.
					for _, pid := range clitest.PidsWith(marker) {
						syscall.Kill(pid, syscall.SIGTERM)
						time.Sleep(300 * time.Millisecond)
						if !alive(pid) {
							t.Errorf("the app died of SIGTERM: the fixture does not ignore it")
						}
					}
				}
			})
			total := time.Since(t0)
			if code != 0 {
				t.Fatalf("exit %d, want 0 (OK):\n%s", code, stderr)
			}
			want := 1
			if c.name == "child in its own session" {
				want = 2
			}
			if len(pids) != want || group == "" {
				t.Fatalf("while measuring: pids %v (want %d), trial group %q", pids, want, group)
			}
			// On a pipe the measured phase's progress line comes at its end.
			stop := time.Since(tMeasure)
			t.Logf("%s: OK, jvmfit exited %v after the load (%v in all)", c.name,
				stop.Round(10*time.Millisecond), total.Round(10*time.Millisecond))
			if ignores := c.name == "ignores SIGTERM"; ignores != (stop >= trialStopGrace) {
				t.Errorf("jvmfit exited %v after the load, with a %v grace for an app that ignores SIGTERM (%v)", stop, trialStopGrace, ignores)
			}
			for _, pid := range pids {
				if alive(pid) {
					t.Errorf("process %d is left", pid)
				}
			}
			if _, err := os.Stat(group); !os.IsNotExist(err) {
				t.Errorf("trial cgroup %s is left (%v)", group, err)
			}
			st := clitest.OpenStore(t, db)
			if rs, err := st.Trials(store.Filter{}); err != nil || len(rs) != 1 || rs[0].Verdict != trial.OK {
				t.Errorf("stored %d trials (%v), want one OK", len(rs), err)
			}
		})
	}
}

// trialStopGrace is the runner's grace between SIGTERM and SIGKILL.
const trialStopGrace = 3 * time.Second

// trialGroup is the one trial cgroup of the jvmfit process pid ("" if
// none): <own memory cgroup>/jvmfit-<pid>/<trial>.
func trialGroup(pid int) string {
	self, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(self), "\n") {
		if p := strings.SplitN(line, ":", 3); len(p) == 3 && p[1] == "memory" {
			m, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup/memory", p[2], "jvmfit-"+strconv.Itoa(pid), "*-trial-*"))
			if len(m) == 1 {
				return m[0]
			}
		}
	}
	return ""
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(b), ") Z ")
}

// SIGKILL of jvmfit mid-sweep: the app dies with it (Pdeathsig), the
// trials stored stay, and the same sweep run again takes them from the
// store, runs the rest, and sweeps away the killed run's cgroup tree.
func TestSweepSurvivesSIGKILL(t *testing.T) {
	prereq.Root(t)
	desc := clitest.RunFixture(t, "serve", "30s")
	db := filepath.Join(t.TempDir(), "k.db")
	mark := strconv.FormatInt(time.Now().UnixNano()%1000000, 10)
	marker := "-Djvmfit.killtest=" + mark
	args := []string{"sweep", "--app", desc, "--java", clitest.Java17, "--db", db, "--cpus", "1", "--memory", "256Mi",
		"--rate", "10,20,30", "--duration", "1s", "--jvm", "'" + marker + "'", "--experiment", "killed"}
	cmd := clitest.Cmd(t, []string{"TMPDIR=" + t.TempDir()}, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	stored := func() int {
		st, err := store.Open(db)
		if err != nil {
			return 0
		}
		defer st.Close()
		rs, _ := st.Trials(store.Filter{Experiment: "killed", Light: true})
		return len(rs)
	}
	// Kill it once a trial is stored and the next one's JVM runs.
	var java []int
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no trial stored with the next one running in 120 s:\n%s", errb.String())
		}
		if java = clitest.PidsWith(marker); stored() >= 1 && len(java) == 1 {
			break
		}
	}
	groups := filepath.Join(clitest.OwnMemoryCgroup(t), "jvmfit-"+strconv.Itoa(cmd.Process.Pid))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); alive(java[0]); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the JVM %d outlived jvmfit's SIGKILL by 5 s", java[0])
		}
	}
	// Rerun: the stored trials come from the store, the rest run.
	args[len(args)-1] = "resumed"
	out, stderr, code := clitest.Run(t, []string{"TMPDIR=" + t.TempDir()}, args...)
	if code != 0 || !strings.Contains(out, "## Recommendation") {
		t.Fatalf("rerun exit %d:\n%s\n%s", code, out, stderr)
	}
	st := clitest.OpenStore(t, db)
	killed, _ := st.Trials(store.Filter{Experiment: "killed", Light: true})
	resumed, err := st.Trials(store.Filter{Experiment: "resumed", Light: true})
	if err != nil || len(resumed) != 3 {
		t.Fatalf("resumed sweep has %d trials (%v), want 3", len(resumed), err)
	}
	// A reused trial is stored again under the new experiment, unchanged.
	reused := 0
	for _, k := range killed {
		for _, r := range resumed {
			if r.StartedAt.Equal(k.StartedAt) && r.Key == k.Key {
				reused++
			}
		}
	}
	t.Logf("killed after %d stored trials; the rerun reused %d, and said %d times \"from the store\"",
		len(killed), reused, strings.Count(stderr, "from the store"))
	if reused != len(killed) || strings.Count(stderr, "from the store") != len(killed) {
		t.Errorf("the rerun reused %d of the %d stored trials:\n%s", reused, len(killed), stderr)
	}
	if left := clitest.PidsWith(marker); len(left) != 0 {
		t.Errorf("processes left: %v", left)
	}
	if _, err := os.Stat(groups); !os.IsNotExist(err) {
		t.Errorf("the killed jvmfit's cgroup tree %s is still there after the rerun (%v)", groups, err)
	}
}
