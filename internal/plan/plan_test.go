package plan

import (
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/size"
)

func limits(mem int64, cpus float64) cgroup.Limits {
	return cgroup.Limits{MemoryBytes: mem, HostMemoryBytes: 1 << 50, CPUQuota: cpus, HostCPUs: 512}
}

var jdk17 = jdk.JDK{Version: 17, Update: 15}
var jdk25 = jdk.JDK{Version: 25, Update: 3}

func mustPlan(t *testing.T, in Input) *Plan {
	t.Helper()
	p, err := Compute(in)
	if err != nil {
		t.Fatalf("%s/%v: %v", size.Format(in.Limits.MemoryBytes), in.Limits.CPUQuota, err)
	}
	return p
}

func TestPlanTable(t *testing.T) {
	for _, j := range []jdk.JDK{jdk17, jdk25} {
		for _, m := range []int64{128, 256, 512, 1024, 4096} {
			for _, c := range []float64{1, 2} {
				p := mustPlan(t, Input{Limits: limits(m*mib, c), JDK: j})
				t.Logf("JDK %d %5dMi %v CPU: heap %-6s %s", j.Version, m, c, size.Format(p.HeapBytes()), strings.Join(p.Options, " "))
			}
		}
	}
}

func jdk11() jdk.JDK { return jdk.JDK{Version: 11, Update: 13} }
