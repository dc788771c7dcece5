package trial

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
)

// Version is jvmfit's version, recorded with every trial; main sets it.
var Version = "dev"

var hostOnce sync.Once
var hostEnv Env

// CollectEnv records where the trial runs: kernel, CPU model, the JDK and
// jvmfit's version, and the cgroup version limits are applied with.
func CollectEnv(spec Spec) Env {
	hostOnce.Do(func() {
		if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
			hostEnv.Kernel = strings.TrimSpace(string(b))
		}
		hostEnv.CPUModel = cpuModel()
		hostEnv.HostCPUs = runtime.NumCPU()
		hostEnv.Cgroup = "none"
		if h, err := cgroup.ReadHierarchy("/"); err == nil {
			hostEnv.Cgroup = map[int]string{1: "v1", 2: "v2"}[h.Version]
		}
	})
	e := hostEnv
	e.Jvmfit = Version
	if spec.NoLimits {
		e.Cgroup = "none"
	}
	if j, err := jdk.Inspect(spec.Java); err == nil {
		e.JDK = strings.TrimSpace(j.Full + " " + j.Vendor)
	}
	return e
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
