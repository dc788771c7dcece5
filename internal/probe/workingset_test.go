package probe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func TestInactiveFileFixtures(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want int64
	}{
		// v1: the hierarchical total (20 MiB), not the group's own 16 MiB.
		{"testdata/cgroup-v1", 20 * mib},
		{"testdata/cgroup-v2", 12 * mib},
	} {
		got, err := inactiveFile(c.dir)
		if err != nil || got != c.want {
			t.Errorf("%s: %d, %v; want %d", c.dir, got, err, c.want)
		}
	}
	if _, err := inactiveFile("testdata/cgroup-none"); err == nil || !strings.Contains(err.Error(), "no inactive_file") {
		t.Errorf("memory.stat without inactive_file: err = %v", err)
	}
	if _, err := inactiveFile("testdata/absent"); err == nil {
		t.Error("no memory.stat: no error")
	}
}

func TestWorkingSet(t *testing.T) {
	if got := WorkingSet(146*mib, 20*mib); got != 126*mib {
		t.Errorf("146-20 MiB = %d MiB", got/mib)
	}
	// cAdvisor's rule: never negative.
	if got := WorkingSet(10*mib, 12*mib); got != 0 {
		t.Errorf("inactive above usage: %d", got)
	}
}

// TestSamplerWorkingSetFixture runs the sampler on this test's own process
// with a fixture cgroup directory: the working set is usage less the
// fixture's inactive file pages.
func TestSamplerWorkingSetFixture(t *testing.T) {
	cg := func() (CgroupStats, error) { return CgroupStats{Usage: 150 * mib}, nil }
	s := Start(t.Context(), Target{Pid: os.Getpid(), CgroupStats: cg, CgroupDir: "testdata/cgroup-v1"}, time.Hour)
	series := s.Stop()
	if len(series) == 0 || series[0].WorkingSet != 130*mib {
		t.Fatalf("working set %+v, want 150-20 MiB", series)
	}
	if sum := Summarise(series, 0); sum.WorkingSetPeak != 130*mib {
		t.Errorf("summary working set peak %d", sum.WorkingSetPeak)
	}
}

// TestWorkingSetRealCgroup charges page cache to a real trial group and
// checks the reader against the kernel's own figures.
func TestWorkingSetRealCgroup(t *testing.T) {
	prereq.Root(t)
	m, err := cgroup.NewManager("/")
	if err != nil {
		t.Fatalf("no cgroups: %v", err)
	}
	g, err := m.Create("probe-ws-"+strconv.Itoa(os.Getpid()), cgroup.Spec{MemoryBytes: 256 * mib})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove()
	file := filepath.Join(t.TempDir(), "data")
	// The shell waits for a line on stdin, so it writes only once it is in
	// the group: 32 MiB of page cache charged to the group.
	cmd := exec.Command("sh", "-c", "read go; dd if=/dev/zero of="+file+" bs=1M count=32 2>/dev/null; sync")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	in.Write([]byte("go\n"))
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	st, err := g.Stats()
	if err != nil {
		t.Fatal(err)
	}
	inactive, err := inactiveFile(g.Path())
	if err != nil {
		t.Fatal(err)
	}
	ws := WorkingSet(st.Usage, inactive)
	t.Logf("usage %d KiB, cache %d KiB, inactive file %d KiB, working set %d KiB", st.Usage>>10, st.Cache>>10, inactive>>10, ws>>10)
	// Freshly written pages start on the inactive list: most of the 32 MiB
	// is inactive file, and the working set is what is left of usage.
	if inactive < 16*mib || inactive > st.Cache || ws != st.Usage-inactive || ws > st.Usage-16*mib {
		t.Errorf("usage %d, cache %d, inactive %d, working set %d", st.Usage, st.Cache, inactive, ws)
	}
}
