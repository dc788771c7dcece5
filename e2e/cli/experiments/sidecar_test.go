package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/store"
)

// Seed 004's sample under minmem at a low rate: the Netty proxy (the real
// jar) in front of its upstream, a kind http service jvmfit starts per
// trial (`jvmfit upstream` in its own cgroup). Every trial records the
// upstream's footprint, the app sits on CPU 0 and the load generator and
// upstream on the other CPU (placement: separate), and no upstream
// outlives the experiment. The SLO is loose: the tight one is the
// benchmark's (bench/sidecar-floor.sh), not a timed test's on a shared host.
func TestSidecarMinMemWithItsUpstreamAsAService(t *testing.T) {
	prereq.Root(t)
	desc := clitest.Repo("workloads", "sidecar", "app.yaml")
	prereq.Built(t, clitest.Repo("workloads", "sidecar", "target", "sidecar.jar"))
	db := filepath.Join(t.TempDir(), "sidecar.db")
	clitest.ExperimentRun(t, "minmem", "--app", desc, "--db", db, "--experiment", "sc",
		"--cpus", "1", "--jvm", "default", "--min", "32Mi", "--max", "256Mi", "--step", "32Mi", "--repeats", "0",
		"--rate", "50", "--warmup", "2s", "--duration", "4s", "--soak", "0s",
		"--slo", "success>=0.99,throughput>=0.9*rate,p999<=2s", "--json")
	st := clitest.OpenStore(t, db)
	e, err := st.Experiment("sc")
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(store.Filter{ExperimentID: e.ID})
	if err != nil || len(trials) == 0 {
		t.Fatalf("%d trials stored: %v", len(trials), err)
	}
	ok := 0
	for _, r := range trials {
		if r.Verdict == "OK" {
			ok++
			if r.Load == nil || r.Load.Latencies.P999 <= 0 || r.Load.Latencies.P999 < r.Load.Latencies.P99 {
				t.Errorf("trial %d at %dMi: OK without a p999 at or over its p99: %+v", r.ID, r.Spec.MemoryBytes>>20, r.Load)
			}
		}
		if len(r.Services) != 1 || r.Services[0].Name != "backend" || r.Services[0].Kind != "http" ||
			r.Services[0].MemoryBytes != 64<<20 || r.Services[0].MemoryPeak <= 0 {
			t.Errorf("trial %d: services %+v, want the backend upstream with its 64Mi limit and a peak", r.ID, r.Services)
		}
		if runtime.NumCPU() >= 2 && (r.Spec.CPUSet != "0" || r.Spec.SideCPUSet != "1-"+strconv.Itoa(runtime.NumCPU()-1) && r.Spec.SideCPUSet != "1") {
			t.Errorf("trial %d: app on cpuset %q, side on %q; want the app on CPU 0 and the rest beside", r.ID, r.Spec.CPUSet, r.Spec.SideCPUSet)
		}
	}
	if ok == 0 {
		t.Errorf("no trial of %d passed up to 256Mi", len(trials))
	}
	// The report's trials table gives the p99.9 the SLO judged beside the p99.
	md, _, code := clitest.Run(t, nil, "report", "--db", db, "-e", "sc")
	if code != 0 || !strings.Contains(md, "| p99 | p99.9 |") || !strings.Contains(md, "backend peak") {
		t.Errorf("report exit %d lacks the p99.9 and the upstream's columns:\n%s", code, md)
	}
	if left := upstreams(); len(left) > 0 {
		t.Errorf("upstreams left running after minmem: %v", left)
	}
}

// upstreams are the `jvmfit upstream` processes of the binary under test.
func upstreams() []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := bytes.Split(b, []byte{0})
		if exe == clitest.Bin() && len(args) > 1 && string(args[1]) == "upstream" {
			out = append(out, pid)
		}
	}
	return out
}
