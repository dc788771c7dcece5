package plan

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

var limGroupSeq atomic.Int64

// limTestGroup makes a memory cgroup below our own and a cpu cgroup (v1
// hierarchies) with the given limits, removed when the test ends. It
// returns a shell prefix that moves the shell into both before exec.
func limTestGroup(t *testing.T, mem int64, cpus float64) string {
	t.Helper()
	prereq.Root(t)
	own := ownCgroup(t, "memory")
	name := fmt.Sprintf("jvmfit-test-launcher-%d-%d", os.Getpid(), limGroupSeq.Add(1))
	memDir := filepath.Join("/sys/fs/cgroup/memory", own, name)
	cpuDir := filepath.Join("/sys/fs/cgroup/cpu", ownCgroup(t, "cpu"), name)
	for _, d := range []string{memDir, cpuDir} {
		if _, err := os.Stat(filepath.Dir(d)); err != nil {
			t.Skipf("no cgroup v1 hierarchy at %s", filepath.Dir(d))
		}
		sweepTestGroups(filepath.Dir(d))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatalf("cannot create cgroup %s: %v", d, err)
		}
		d := d
		t.Cleanup(func() {
			if err := os.Remove(d); err != nil {
				t.Errorf("cgroup %s left behind: %v", d, err)
			}
		})
	}
	write := func(p, v string) {
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatalf("write %s: %v", p, err)
		}
	}
	write(filepath.Join(memDir, "memory.limit_in_bytes"), fmt.Sprint(mem))
	write(filepath.Join(cpuDir, "cpu.cfs_period_us"), "100000")
	write(filepath.Join(cpuDir, "cpu.cfs_quota_us"), fmt.Sprint(int64(cpus*100000)))
	return fmt.Sprintf("echo $$ > %s/cgroup.procs && echo $$ > %s/cgroup.procs && exec ", memDir, cpuDir)
}

// sweepTestGroups removes, below parent, the groups of test binaries that
// died before their cleanup ran (killed by go test's -timeout or a
// signal): their name carries the pid, and a group of a dead pid with no
// process left in it is nobody's.
func sweepTestGroups(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, "jvmfit-test-launcher-*-*"))
	for _, d := range dirs {
		f := strings.Split(filepath.Base(d), "-")
		pid, err := strconv.Atoi(f[len(f)-2])
		if err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); err == nil || err == syscall.EPERM {
			continue // its test binary still runs
		}
		_ = os.Remove(d) // fails, harmlessly, while a process is still in it
	}
}

// ownCgroup is this process's cgroup path in a v1 controller's hierarchy.
func ownCgroup(t *testing.T, controller string) string {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		t.Skip("no /proc/self/cgroup")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) == 3 {
			for _, c := range strings.Split(parts[1], ",") {
				if c == controller {
					return parts[2]
				}
			}
		}
	}
	t.Skipf("no v1 %s controller", controller)
	return ""
}
