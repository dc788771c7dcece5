//go:build linux

package docker

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// The probes read a container as they read a plain trial's group: from its
// cgroups (memory, CPU, throttling) and its java process (/proc/<pid>).

// cgroupDirs maps the v1 controllers the probes read to the container's
// directories, from the container's /proc/<pid>/cgroup and jvmfit's own
// mount points (the container's mountinfo would give its own namespace's).
func cgroupDirs(pid int) (map[string]string, error) {
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		return nil, err
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dirs := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if m := h.Mounts[c]; m != "" && (c == "memory" || c == "cpu" || c == "cpuacct") {
				dirs[c] = filepath.Join(m, parts[2])
			}
		}
	}
	if dirs["memory"] == "" {
		return nil, fmt.Errorf("container process %d has no memory cgroup", pid)
	}
	return dirs, nil
}

// Stats reads the container's cgroups now: memory (usage, peak, anonymous
// and page cache), CPU time and throttling. After the container exited it
// returns the last reading with the error.
func (p *Process) Stats() (cgroup.Stats, error) {
	p.statsMu.Lock()
	defer p.statsMu.Unlock()
	if p.v2 {
		s, err := cgroup.ReadStatsV2(p.cgDir)
		if err != nil {
			return p.last, fmt.Errorf("cannot read the memory of container %.12s: %w", p.id, err)
		}
		storeMax(&p.peak, s.Peak)
		s.Peak = max(s.Peak, p.peak.Load())
		p.last = s
		return s, nil
	}
	if p.dirs == nil {
		d, err := cgroupDirs(p.pid)
		if err != nil {
			return p.last, fmt.Errorf("cannot find the cgroups of container %.12s: %w", p.id, err)
		}
		p.dirs = d
	}
	s, err := cgroup.ReadStatsV1(p.dirs)
	if err != nil {
		return p.last, fmt.Errorf("cannot read the memory of container %.12s: %w", p.id, err)
	}
	storeMax(&p.peak, s.Peak)
	s.Peak = max(s.Peak, p.peak.Load())
	p.last = s
	return s, nil
}

// JavaPid is the container's java process as the host sees it: the init
// process for a java entrypoint, else the first process of the container
// whose command is java (a script's child). It waits up to timeout for one
// to appear, and falls back on the init process.
func (p *Process) JavaPid(timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	for {
		if comm(p.pid) == "java" {
			return p.pid
		}
		for _, pid := range p.procs() {
			if comm(pid) == "java" {
				return pid
			}
		}
		select {
		case <-p.done:
			return p.pid
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return p.pid
		}
	}
}

func (p *Process) procs() []int {
	b, err := os.ReadFile(p.cgDir + "/cgroup.procs")
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

func comm(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// NSPid is pid as the container's own pid namespace numbers it (its
// hsperfdata file's name and what jcmd inside the container takes), from
// the last field of NSpid in /proc/<pid>/status; pid itself if unknown.
func NSPid(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return pid
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "NSpid:"); ok {
			if f := strings.Fields(v); len(f) > 0 {
				if n, err := strconv.Atoi(f[len(f)-1]); err == nil {
					return n
				}
			}
		}
	}
	return pid
}

// PerfDataPath is the hsperfdata file of the container's JVM pid (a host
// pid), reached through /proc/<pid>/root: /tmp/hsperfdata_<user>/<nspid>,
// with the user named by the container's own /etc/passwd.
func PerfDataPath(pid int) string {
	root := "/proc/" + strconv.Itoa(pid) + "/root"
	return filepath.Join(root, "tmp", "hsperfdata_"+containerUser(pid, root), strconv.Itoa(NSPid(pid)))
}

// containerUser names pid's real uid as the container's /etc/passwd does,
// or gives the number, as HotSpot does for a uid with no name.
func containerUser(pid int, root string) string {
	uid := ""
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 1 {
					uid = f[1] // the effective uid: HotSpot names the directory after it
				}
			}
		}
	}
	if b, err := os.ReadFile(root + "/etc/passwd"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Split(line, ":")
			if len(f) > 2 && f[2] == uid {
				return f[0]
			}
		}
	}
	return uid
}
