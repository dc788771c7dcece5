//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// clockTick is USER_HZ, 100 on every Linux ABI Go supports.
const clockTick = 100

// procStats fills what /proc offers for the main process alone when there
// is no cgroup: RSS as usage, the kernel's high-water mark as peak, CPU time.
func (p *Process) procStats() (cgroup.Stats, error) {
	st := cgroup.Stats{Limit: -1}
	dir := "/proc/" + strconv.Itoa(p.pid)
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return st, fmt.Errorf("process %d: %v", p.pid, err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			st.Usage = kb << 10
		case "VmHWM":
			st.Peak = kb << 10
		case "RssAnon":
			st.RSS = kb << 10
		case "RssFile":
			st.Cache = kb << 10
		}
	}
	if b, err := os.ReadFile(dir + "/stat"); err == nil {
		// Fields after the parenthesised command name; utime, stime are 14, 15.
		if i := strings.LastIndexByte(string(b), ')'); i > 0 {
			f := strings.Fields(string(b)[i+1:])
			if len(f) > 13 {
				ut, _ := strconv.ParseInt(f[11], 10, 64)
				stt, _ := strconv.ParseInt(f[12], 10, 64)
				st.CPUUsage = time.Duration(ut+stt) * time.Second / clockTick
			}
		}
	}
	st.Procs = 1
	p.mu.Lock()
	if st.Usage > p.procPeak {
		p.procPeak = st.Usage
	}
	if st.Peak < p.procPeak {
		st.Peak = p.procPeak
	}
	p.mu.Unlock()
	return st, nil
}
