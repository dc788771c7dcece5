//go:build linux

package cgroup

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
)

// Spec is what a trial group enforces. Zero values mean "no limit".
type Spec struct {
	MemoryBytes int64   // memory limit, swap forbidden
	CPUs        float64 // CFS quota in CPUs; fractions allowed (1.5 = 150 ms per 100 ms)
	CPUSet      string  // cpuset list such as "0" or "0-1"; "" inherits the parent's
	// Pids caps the group's tasks, threads included (pids.max): a safety
	// limit, not a sizing one, so a fork bomb in a trial stops there
	// instead of filling the host's process table. 0 = none; callers that
	// have no say use DefaultPids. Set only where the kernel has a pids
	// controller.
	Pids int64
}

// DefaultPids is the pids limit of a trial whose descriptor sets none
// (pids_limit, docs/app.md): far above what a service's JVM uses (a
// few hundred threads), low enough to stop a runaway fork loop long
// before the host's pid_max.
const DefaultPids = 4096

// Group is one trial's cgroup, on every hierarchy it needs (v1) or in one
// directory (v2).
type Group interface {
	// Path is the main directory (the memory hierarchy's on v1).
	Path() string
	// Paths lists every directory of the group, one per v1 hierarchy.
	Paths() []string
	// AddProc moves a process into the group on every hierarchy.
	AddProc(pid int) error
	// Stats reads memory, CPU and OOM counters.
	Stats() (Stats, error)
	// OOMKills is how many processes the kernel OOM-killed in the group.
	OOMKills() (int64, error)
	// Procs lists the processes inside the group.
	Procs() ([]int, error)
	// Kill sends SIGKILL to every process of the group until it is empty.
	Kill() error
	// Remove deletes the group's directories (killing nothing); it retries
	// briefly while exiting tasks drain. Removing twice is not an error.
	Remove() error
}

// grpNotWritableAdvice ends every error that means "limits cannot be set here".
const grpNotWritableAdvice = "jvmfit needs root or a delegated cgroup to set limits; use --no-limits for a baseline"

// Manager creates trial groups in a sub-tree named jvmfit-<pid>, so that
// concurrent jvmfit processes never collide and a crashed one's leftovers
// can be recognised (Sweep): on v1 below this process's own cgroups, on v2
// where placement finds the kernel lets it (place.go).
type Manager struct {
	root    string
	h       Hierarchy
	pid     int
	version int
	// k is cgroupfs; fixture tests replace it with a kernel of their own.
	k kernel
	// place is where the v2 trial groups go, found on first use.
	place *Place
}

// grpControllersV1 are the v1 hierarchies a trial group joins. cpuacct is
// listed apart because it is a separate hierarchy on some hosts.
var grpControllersV1 = []string{"memory", "cpu", "cpuacct", "cpuset", "pids"}

// grpBaseMu serialises making and removing the jvmfit-<pid> directories, so
// one trial's Remove never deletes the base under another trial's Create.
var grpBaseMu sync.Mutex

// NewManager locates this process's cgroups under root ("/" in production)
// and checks that groups can be created there.
func NewManager(root string) (*Manager, error) {
	h, err := ReadHierarchy(root)
	if err != nil {
		return nil, fmt.Errorf("%s (%v)", grpNotWritableAdvice, err)
	}
	m := &Manager{root: root, h: h, pid: os.Getpid(), version: h.Version, k: osKernel{}}
	if h.Version == 2 {
		// Where the groups go, and whether the kernel lets jvmfit make
		// them there, is placement's to say (place.go).
		m.place = cachedPlace(root)
		return m, nil
	}
	dir := h.Dir("memory")
	if dir == "" {
		return nil, fmt.Errorf("no memory controller is available to this process; %s", grpNotWritableAdvice)
	}
	if h.Dir("cpu") == "" {
		return nil, fmt.Errorf("no cpu controller is available to this process; %s", grpNotWritableAdvice)
	}
	for _, c := range []string{"memory", "cpu"} {
		if err := syscall.Access(h.Dir(c), 2 /* W_OK */); err != nil {
			return nil, fmt.Errorf("cannot write %s (%v): %s", h.Dir(c), err, grpNotWritableAdvice)
		}
	}
	return m, nil
}

// Version is the cgroup version the groups are made on (1 or 2).
func (m *Manager) Version() int { return m.version }

// Base returns the jvmfit-<pid> directory on the memory hierarchy (on v2,
// once the first group placed it; before, below the own cgroup).
func (m *Manager) Base() string {
	if m.place != nil {
		return filepath.Join(m.place.Parent, m.baseName())
	}
	return filepath.Join(m.h.Dir("memory"), m.baseName())
}

func (m *Manager) baseName() string { return "jvmfit-" + strconv.Itoa(m.pid) }

// Compiled on first use: jvmfit flags must start in a few ms.
var grpNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$`) })

// Create makes the trial group jvmfit-<pid>/<name> and applies s. On error
// nothing is left behind.
func (m *Manager) Create(name string, s Spec) (Group, error) {
	if !grpNameRE().MatchString(name) {
		return nil, fmt.Errorf("bad trial group name %q: use letters, digits, '.', '_' and '-'", name)
	}
	if err := s.grpValidate(); err != nil {
		return nil, err
	}
	grpBaseMu.Lock()
	defer grpBaseMu.Unlock()
	if m.version == 2 {
		return m.createV2(name, s)
	}
	return m.createV1(name, s)
}

func (s Spec) grpValidate() error {
	if s.MemoryBytes < 0 {
		return fmt.Errorf("memory limit %d is negative", s.MemoryBytes)
	}
	if s.MemoryBytes > 0 && s.MemoryBytes < 4<<20 {
		return fmt.Errorf("memory limit %d bytes is too small: give at least 4Mi", s.MemoryBytes)
	}
	// NaN fails every comparison below, and so would set no quota at all.
	if math.IsNaN(s.CPUs) || math.IsInf(s.CPUs, 0) {
		return fmt.Errorf("CPU limit %g is not a number of CPUs", s.CPUs)
	}
	if s.CPUs < 0 {
		return fmt.Errorf("CPU limit %g is negative", s.CPUs)
	}
	if s.CPUs > 0 && grpQuota(s.CPUs) < 1000 {
		return fmt.Errorf("CPU limit %g is too small: give at least 0.01", s.CPUs)
	}
	if s.Pids < 0 {
		return fmt.Errorf("pids limit %d is negative", s.Pids)
	}
	if s.CPUSet != "" && !grpCPUSetRE().MatchString(s.CPUSet) {
		return fmt.Errorf("bad cpuset %q: use a list such as 0 or 0-1,3", s.CPUSet)
	}
	return nil
}

// Compiled on first use: jvmfit flags must start in a few ms.
var grpCPUSetRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+(-\d+)?(,\d+(-\d+)?)*$`) })

// grpPeriod is the CFS period in µs; quota = CPUs × period.
const grpPeriod = 100000

func grpQuota(cpus float64) int64 { return int64(cpus*grpPeriod + 0.5) }

// grpMkdir makes dir (a directory that must not exist yet) and lets a
// fixture populate it.
func (m *Manager) grpMkdir(dir string) error { return m.k.Mkdir(dir) }

// grpEnsureDir makes dir if missing (the shared jvmfit-<pid> base).
func (m *Manager) grpEnsureDir(dir string) (created bool, err error) {
	if _, err := os.Stat(dir); err == nil {
		return false, nil
	}
	if err := m.grpMkdir(dir); err != nil {
		if os.IsExist(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
