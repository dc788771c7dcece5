//go:build linux

package service

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

func needPostgres(t *testing.T) string {
	t.Helper()
	prereq.Postgres(t)
	bin, err := postgresBin()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startHelper runs this test binary's helper test (a jvmfit stand-in)
// with env set, and gives its stdout; the process is killed at cleanup.
func startHelper(t *testing.T, test, env string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, out
}

func needRoot(t *testing.T) {
	t.Helper()
	prereq.Root(t)
}

// leftovers lists what this test process's services left: server
// processes whose command line names one of our directories, and the
// directories themselves.
func leftovers(t *testing.T) (pids []int, dirs []string) {
	t.Helper()
	mark := fmt.Sprintf("%s%d-", dirPrefix, os.Getpid())
	return leftoversOf(t, mark)
}

func leftoversOf(t *testing.T, mark string) (pids []int, dirs []string) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), mark) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if !zombie(pid) {
			pids = append(pids, pid)
		}
	}
	dirs, _ = filepath.Glob(filepath.Join(os.TempDir(), mark+"*"))
	return pids, dirs
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || strings.Contains(string(b), ") Z ")
}

// psql runs one query as the app's role through TCP with its password, as
// the app would.
func psql(t *testing.T, bin string, ex map[string]string, db, query string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "psql"), "-X", "-A", "-t", "-w", "-h", ex["db_host"], "-p", ex["db_port"],
		"-U", ex["db_user"], "-d", db, "-c", query)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+ex["db_password"])
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func cgroupOf(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if parts := strings.SplitN(l, ":", 3); len(parts) == 3 && parts[1] == "memory" {
			return parts[2]
		}
	}
	return ""
}

func uidOf(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Uid:"); ok {
			return strings.Fields(v)[0]
		}
	}
	return ""
}

// orphanShm counts System V segments with no process attached, the mark of
// a server that was killed without cleaning up.
func orphanShm(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/sysvipc/shm")
	if err != nil {
		return 0
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 6 && f[6] == "0" {
			n++
		}
	}
	return n
}
