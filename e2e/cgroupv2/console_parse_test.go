package cgroupv2

import (
	"strings"
	"testing"
	"time"
)

// A console as the guest's scripts write it, kernel noise included.
const consoleFixture = `[    0.000000] Linux version 6.1.0-56-amd64
@@BOOTED 4.34 6.1.0-56-amd64
@@INFO controllers cpuset cpu io memory hugetlb pids rdma misc
@@LAYOUT host BEGIN
@@BEGIN host cgroup
stderr line
@@STDOUT
--- PASS: TestGroupRealPlaced (0.12s)
@@END host cgroup 0 2440
@@BEGIN host small
trial tiny: 1 CPU, 40Mi
@@STDOUT
  "verdict": "KO",
  "kind": "java-oom",
@@END host small 1 5230
@@BEGIN host leftover
@@STDOUT
@@LEFT host /sys/fs/cgroup/agent/jvmfit.slice/jvmfit-99 
@@LAYOUT host END 34500
@@LAYOUT systemd BEGIN
@@BEGIN systemd ok
ready in 9.4s
`

func TestGuestRunReadsMarkers(t *testing.T) {
	g := newGuestRun()
	readConsole(strings.NewReader(strings.ReplaceAll(consoleFixture, "\n", "\r\n")), g.line)
	if g.Booted != 4340*time.Millisecond || g.Kernel != "6.1.0-56-amd64" || g.Done {
		t.Errorf("booted %v kernel %q done %v", g.Booted, g.Kernel, g.Done)
	}
	c := g.step("host", "cgroup")
	if c == nil || !c.Ended || c.RC != 0 || c.Took != 2440*time.Millisecond ||
		strings.Join(c.Log, "|") != "stderr line" || strings.Join(c.Stdout, "|") != "--- PASS: TestGroupRealPlaced (0.12s)" {
		t.Errorf("cgroup step %+v", c)
	}
	s := g.step("host", "small")
	if s == nil || s.RC != 1 {
		t.Fatalf("small step %+v", s)
	}
	if r := trialJSON(t, s); r.Verdict != "KO" || r.Kind != "java-oom" {
		t.Errorf("small's result %+v", r)
	}
	// A step cut short (no @@END) is there but not ended; so is a layout.
	if l := g.step("host", "leftover"); l == nil || l.Ended {
		t.Errorf("leftover step %+v: want begun, not ended", l)
	}
	if o := g.step("systemd", "ok"); o == nil || o.Ended || strings.Join(o.Log, "|") != "ready in 9.4s" {
		t.Errorf("systemd ok %+v", o)
	}
	if g.step("container", "ok") != nil {
		t.Error("a step the guest never began was found")
	}
	if g.Left["host"] != "/sys/fs/cgroup/agent/jvmfit.slice/jvmfit-99" || g.Layouts["host"] != 34500*time.Millisecond {
		t.Errorf("left %q, layouts %v", g.Left, g.Layouts)
	}
	if _, ok := g.Layouts["systemd"]; ok || len(g.Output["systemd"]) != 3 || len(g.Output["host"]) != 16 {
		t.Errorf("systemd ended %v; output lines host %d systemd %d", ok, len(g.Output["host"]), len(g.Output["systemd"]))
	}
}
