//go:build linux

package probe

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// userHZ is the clock-tick rate of /proc/<pid>/stat on every Linux we run on.
const userHZ = 100

// procReader reads a process's footprint through procfs, whose FS takes a
// mount point so that tests can point it at a fixture tree.
type procReader struct {
	proc procfs.Proc
}

func newProcReader(root string, pid int) (*procReader, error) {
	if root == "" {
		root = procfs.DefaultMountPoint
	}
	fs, err := procfs.NewFS(root)
	if err != nil {
		return nil, err
	}
	p, err := fs.Proc(pid)
	if err != nil {
		return nil, err
	}
	return &procReader{proc: p}, nil
}

// read fills the /proc fields of s. It fails only when the process is gone;
// a missing optional file (smaps_rollup on old kernels) leaves its field zero.
func (r *procReader) read(s *Sample, withPSS bool) error {
	st, err := r.proc.Stat()
	if err != nil {
		return err
	}
	s.Threads = st.NumThreads
	s.ProcCPUTime = time.Duration(st.UTime+st.STime) * time.Second / userHZ
	s.RSS = int64(st.ResidentMemory())
	if status, err := r.proc.NewStatus(); err == nil && status.VmRSS > 0 {
		s.RSS = int64(status.VmRSS)
		s.RSSAnon = int64(status.RssAnon)
	}
	if n, err := r.proc.FileDescriptorsLen(); err == nil {
		s.FDs = n
	}
	if withPSS {
		if roll, err := r.proc.ProcSMapsRollup(); err == nil {
			s.PSS = int64(roll.Pss)
		}
	}
	return nil
}

// age is how long the process has been running: system uptime minus its
// start tick, both at 10 ms resolution (btime would round to the second).
func (r *procReader) age(root string) (time.Duration, error) {
	st, err := r.proc.Stat()
	if err != nil {
		return 0, err
	}
	if root == "" {
		root = procfs.DefaultMountPoint
	}
	b, err := os.ReadFile(filepath.Join(root, "uptime"))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("empty %s/uptime", root)
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, fmt.Errorf("%s/uptime: %w", root, err)
	}
	age := time.Duration(up*float64(time.Second)) - time.Duration(st.Starttime)*time.Second/userHZ
	return max(age, 0), nil
}
