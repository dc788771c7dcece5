//go:build linux

package service

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/jvmfit/jvmfit/internal/cleanup"
)

// StopAll is the services' emergency-cleanup hook (internal/cleanup).
func init() { cleanup.Register(StopAll) }

// dirPrefix names every service directory jvmfit makes in the temp
// directory: jvmfit-svc-<jvmfit pid>-<random>.
const dirPrefix = "jvmfit-svc-"

// The registry holds every service not yet stopped and every data
// directory not yet removed, so a path that cannot run the trial's
// deferred Stop (a panic handler in main) still leaves nothing behind.
var registry = struct {
	sync.Mutex
	live map[Instance]struct{}
	dirs map[string]struct{}
}{live: map[Instance]struct{}{}, dirs: map[string]struct{}{}}

func register(in Instance) {
	registry.Lock()
	registry.live[in] = struct{}{}
	registry.Unlock()
}

func unregister(in Instance) {
	registry.Lock()
	delete(registry.live, in)
	registry.Unlock()
}

func registerDir(d string) {
	registry.Lock()
	registry.dirs[d] = struct{}{}
	registry.Unlock()
}

func unregisterDir(d string) {
	registry.Lock()
	delete(registry.dirs, d)
	registry.Unlock()
}

// StopAll stops every live service and removes every data directory.
func StopAll() {
	registry.Lock()
	stops := make([]func(), 0, len(registry.live))
	for in := range registry.live {
		stops = append(stops, func() { in.Stop() })
	}
	registry.Unlock()
	cleanup.AtOnce(stops...)
	registry.Lock()
	for d := range registry.dirs {
		os.RemoveAll(d)
		delete(registry.dirs, d)
	}
	registry.Unlock()
}

// Live is how many services have not been stopped yet.
func Live() int {
	registry.Lock()
	defer registry.Unlock()
	return len(registry.live)
}

var sweepOnce sync.Once

func sweepStaleOnce() { sweepOnce.Do(func() { SweepStale(os.TempDir()) }) }

// SweepStale removes service directories that a jvmfit killed outright
// (second Ctrl-C, SIGKILL) left in tmp: only jvmfit-svc-<pid>-* whose
// jvmfit pid is dead. A server still running from such a directory
// (it should have died with jvmfit) is killed first; it is recognised by
// its postmaster.pid and its command line naming that directory.
func SweepStale(tmp string) []string {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), dirPrefix)
		if !e.IsDir() || !ok {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		killServer(dir)
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

func killServer(dir string) {
	data := filepath.Join(dir, "data")
	f, err := os.Open(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
	if err != nil || pid <= 1 {
		return
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err == nil && strings.Contains(string(cmdline), data) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
