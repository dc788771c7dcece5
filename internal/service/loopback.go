//go:build linux

package service

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// tcpListen is TCP_LISTEN, a listening socket's state in /proc/net/tcp.
const tcpListen = 10

// notLoopback lists, as "ADDR:PORT", the TCP sockets the processes pids
// listen on at an address other than loopback: a wildcard (0.0.0.0, ::)
// or a host's address. A command is told a loopback ${port}, but nothing
// makes it bind 127.0.0.1; what a trial starts must be reachable from this
// machine only. Each process's sockets are its open fds; their addresses
// are in the tables of its own network namespace (/proc/PID/net). A
// process gone in between has nothing to say.
func notLoopback(pids []int) []string {
	seen := map[string]bool{}
	var out []string
	for _, pid := range pids {
		inodes := socketInodes(pid)
		if len(inodes) == 0 {
			continue
		}
		fs, err := procfs.NewFS(filepath.Join("/proc", strconv.Itoa(pid)))
		if err != nil {
			continue
		}
		for _, read := range []func() (procfs.NetTCP, error){fs.NetTCP, fs.NetTCP6} {
			lines, _ := read()
			for _, l := range lines {
				if l.St != tcpListen || !inodes[l.Inode] || l.LocalAddr.IsLoopback() {
					continue
				}
				a := net.JoinHostPort(l.LocalAddr.String(), strconv.FormatUint(l.LocalPort, 10))
				if !seen[a] {
					seen[a] = true
					out = append(out, a)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// socketInodes are the inodes of the sockets pid has open.
func socketInodes(pid int) map[uint64]bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[uint64]bool{}
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if s, ok := strings.CutPrefix(target, "socket:["); ok {
			if n, err := strconv.ParseUint(strings.TrimSuffix(s, "]"), 10, 64); err == nil {
				out[n] = true
			}
		}
	}
	return out
}

// tree is pid and its descendants, from the parent of every process in
// /proc, with the processes of group (a cgroup directory, "" for none),
// which keeps one that left the tree by a double fork.
func tree(pid int, group string) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(child); pp > 0 {
			children[pp] = append(children[pp], child)
		}
	}
	in := map[int]bool{}
	var out []int
	add := func(p int) {
		if !in[p] {
			in[p] = true
			out = append(out, p)
		}
	}
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		add(queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	if group != "" {
		b, _ := os.ReadFile(filepath.Join(group, "cgroup.procs"))
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				add(p)
			}
		}
	}
	return out
}

// parentOf is pid's parent from /proc/PID/stat (0 when gone).
func parentOf(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The name in parentheses may hold spaces: fields follow the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// onLoopbackOnly is the check after readiness: one line naming what the
// command listens on beyond loopback, and what to change.
func (p *procService) onLoopbackOnly() error {
	bad := notLoopback(tree(p.Pid(), p.CgroupPath()))
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("listens on %s, beyond loopback: bind 127.0.0.1 (its ${port} is a loopback port; what a trial starts must be reachable from this machine only)", strings.Join(bad, ", "))
}
