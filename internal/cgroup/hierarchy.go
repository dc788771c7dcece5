//go:build linux

// Package cgroup reads container limits (v1 and v2) and manages the cgroups
// jvmfit creates for its trials. Every reader takes a filesystem root, so
// tests run against fixture trees.
package cgroup

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Hierarchy tells where this process sits in each cgroup hierarchy.
type Hierarchy struct {
	// Version is 2 for a pure (unified) v2 host, 1 when v1 controllers are
	// mounted (hybrid hosts count as v1: their v2 tree has no controllers).
	Version int
	// Dirs maps a controller ("memory", "cpu", "cpuacct", "cpuset", "pids")
	// to this process's own cgroup directory, as a path under root. On v2
	// every controller maps to the same directory.
	Dirs map[string]string
	// Mounts maps a controller to the mount point of its hierarchy.
	Mounts map[string]string
}

// Dir returns the own-cgroup directory for a controller, or "".
func (h Hierarchy) Dir(controller string) string { return h.Dirs[controller] }

// ReadHierarchy reads root/proc/self/cgroup and root/proc/self/mountinfo.
func ReadHierarchy(root string) (Hierarchy, error) {
	return ReadHierarchyOf(root, "self")
}

// ReadHierarchyOf is ReadHierarchy for another process ("self" or a pid).
func ReadHierarchyOf(root, pid string) (Hierarchy, error) {
	procCg := filepath.Join(root, "proc", pid, "cgroup")
	paths, err := readProcCgroup(procCg)
	if err != nil {
		return Hierarchy{}, err
	}
	mounts, err := readCgroupMounts(filepath.Join(root, "proc", pid, "mountinfo"))
	if err != nil {
		return Hierarchy{}, err
	}
	h := Hierarchy{Dirs: map[string]string{}, Mounts: map[string]string{}}
	for _, m := range mounts {
		if m.v2 {
			continue
		}
		for _, c := range m.controllers {
			p, ok := paths[c]
			if !ok {
				continue
			}
			h.Version = 1
			h.Mounts[c] = filepath.Join(root, m.point)
			h.Dirs[c] = filepath.Join(root, m.point, relTo(p, m.root))
		}
	}
	if h.Version == 1 {
		return h, nil
	}
	for _, m := range mounts {
		if !m.v2 {
			continue
		}
		p, ok := paths[""]
		if !ok {
			continue
		}
		h.Version = 2
		dir := filepath.Join(root, m.point, relTo(p, m.root))
		top := filepath.Join(root, m.point)
		if strings.HasPrefix(m.root, "/..") {
			// A cgroup namespace entered without mounting cgroup2 anew:
			// the mount's root lies above the namespace's, which no path
			// names, so the process is found by its pid, and what it sees
			// of the hierarchy starts at the namespace's root.
			if d := findProcDir(top, pidNumber(pid), 8); d != "" {
				dir, top = d, strings.TrimSuffix(d, strings.TrimSuffix(filepath.Clean(p), "/"))
			}
		}
		ctrls, _ := os.ReadFile(filepath.Join(top, "cgroup.controllers"))
		for _, c := range append(strings.Fields(string(ctrls)), "cpuacct") {
			h.Dirs[c] = dir
			h.Mounts[c] = top
		}
		// A v2 tree without controllers still locates the process.
		h.Dirs[""] = dir
		h.Mounts[""] = top
		return h, nil
	}
	return Hierarchy{}, fmt.Errorf("no cgroup filesystem found in %s", filepath.Join(root, "proc", pid, "mountinfo"))
}

// pidNumber is the pid ReadHierarchyOf was asked about ("self" is this
// process), as cgroup.procs lists it.
func pidNumber(pid string) string {
	if pid == "self" {
		return strconv.Itoa(os.Getpid())
	}
	return pid
}

// findProcDir is the directory below top, depth levels at most, whose
// cgroup.procs lists pid, or "".
func findProcDir(top, pid string, depth int) string {
	if b, err := os.ReadFile(filepath.Join(top, "cgroup.procs")); err == nil {
		for _, f := range strings.Fields(string(b)) {
			if f == pid {
				return top
			}
		}
	}
	if depth == 0 {
		return ""
	}
	ents, _ := os.ReadDir(top)
	for _, e := range ents {
		if e.IsDir() {
			if d := findProcDir(filepath.Join(top, e.Name()), pid, depth-1); d != "" {
				return d
			}
		}
	}
	return ""
}

// relTo makes a /proc/self/cgroup path relative to the mount's root, which
// differs from "/" inside containers with a namespaced cgroup view.
func relTo(p, mountRoot string) string {
	if mountRoot != "/" && strings.HasPrefix(p, mountRoot) {
		p = strings.TrimPrefix(p, mountRoot)
	}
	return filepath.Clean("/" + p)
}

// readProcCgroup maps each controller to its path; the v2 entry maps "".
func readProcCgroup(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[strings.TrimPrefix(c, "name=")] = parts[2]
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no cgroups", path)
	}
	return out, sc.Err()
}

type cgroupMount struct {
	point, root string
	v2          bool
	controllers []string
}

func readCgroupMounts(path string) ([]cgroupMount, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer f.Close()
	var out []cgroupMount
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f1, f2 := strings.Fields(pre), strings.Fields(post)
		if len(f1) < 5 || len(f2) < 3 {
			continue
		}
		m := cgroupMount{root: unescape(f1[3]), point: unescape(f1[4])}
		switch f2[0] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			for _, o := range strings.Split(f2[2], ",") {
				switch o {
				case "rw", "ro", "relatime", "noatime", "nosuid", "nodev", "noexec", "clone_children":
				default:
					if !strings.Contains(o, "=") || strings.HasPrefix(o, "name=") {
						m.controllers = append(m.controllers, strings.TrimPrefix(o, "name="))
					}
				}
			}
		default:
			continue
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
