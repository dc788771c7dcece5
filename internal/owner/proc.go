package owner

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Proc is one jvmfit process as a run's record names it. The pid says
// which process only together with the rest: the boot (the kernel that
// counts the pids), the PID namespace they are counted in, and the start
// time (a pid is reused; its new process starts later).
type Proc struct {
	Boot  string // /proc/sys/kernel/random/boot_id
	NS    uint64 // the PID namespace's inode
	Pid   int
	Start uint64 // clock ticks after boot, /proc/PID/stat field 22
}

// Self is this process.
var Self = sync.OnceValue(func() Proc {
	p := Proc{Pid: os.Getpid()}
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		p.Boot = strings.TrimSpace(string(b))
	}
	p.NS = pidNS("self")
	p.Start, _ = startOf(p.Pid)
	return p
})

// String is the record's form: BOOT_NS_PID_START, a valid label value.
func (p Proc) String() string {
	return fmt.Sprintf("%s_%d_%d_%d", p.Boot, p.NS, p.Pid, p.Start)
}

// Parse reads a String back; ok is false for anything else (a record an
// older jvmfit wrote, or none).
func Parse(s string) (p Proc, ok bool) {
	f := strings.Split(s, "_")
	if len(f) != 4 || f[0] == "" {
		return Proc{}, false
	}
	var err [3]error
	p.Boot = f[0]
	p.NS, err[0] = strconv.ParseUint(f[1], 10, 64)
	p.Pid, err[1] = strconv.Atoi(f[2])
	p.Start, err[2] = strconv.ParseUint(f[3], 10, 64)
	return p, err[0] == nil && err[1] == nil && err[2] == nil && p.Pid > 0
}

// Gone says whether p has certainly ended: it was counted by this kernel
// in this PID namespace, and its pid is free or another process's. A
// process of another machine, boot or PID namespace cannot be looked at
// from here, so it is never gone (only --sweep-stale removes its runs).
func (p Proc) Gone() bool {
	me := Self()
	if p.Boot == "" || p.Boot != me.Boot || p.NS == 0 || p.NS != me.NS {
		return false
	}
	start, ok := startOf(p.Pid)
	return !ok || start != p.Start
}

// pidNS is the inode of a process's PID namespace (0 if unreadable).
func pidNS(pid string) uint64 {
	l, err := os.Readlink("/proc/" + pid + "/ns/pid") // pid:[4026531836]
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(l, "pid:["), "]"), 10, 64)
	return n
}

// startOf is pid's start time, or false when no such process exists.
func startOf(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The name (field 2) may hold spaces and parentheses: count after the
	// last ')'. Field 22 is then the 20th.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return 0, false
	}
	v, err := strconv.ParseUint(f[19], 10, 64)
	return v, err == nil
}
