//go:build linux

package cgroup

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// On this host's real cgroupfs, whatever its version and layout (on v2 the
// QEMU guest's three layouts run it too): a group lands where placement
// says, below jvmfit-<pid>, with its limits; a process in it is seen there
// by the kernel; Kill and Remove leave nothing, the shared jvmfit.slice
// included once no other jvmfit uses it.
func TestGroupRealPlaced(t *testing.T) {
	m := grpRealManager(t)
	p, err := FindPlace("/")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("place: %s", p)
	g := grpCreate(t, m, "placed", Spec{MemoryBytes: 64 << 20, CPUs: 0.5})
	if !strings.HasPrefix(g.Path(), m.Base()+"/") || !strings.Contains(m.Base(), "jvmfit-"+strconv.Itoa(os.Getpid())) {
		t.Fatalf("group %s is not below this jvmfit's sub-tree %s", g.Path(), m.Base())
	}
	limitFile := "memory.limit_in_bytes"
	if m.Version() == 2 {
		limitFile = "memory.max"
	}
	if got := grpRead(t, g.Path(), limitFile); got != strconv.Itoa(64<<20) {
		t.Errorf("%s = %s", limitFile, got)
	}
	cmd, release := grpStartHeld(t, "exec sleep 30")
	if err := g.AddProc(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	release()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	if want := "/jvmfit-" + strconv.Itoa(os.Getpid()) + "/placed\n"; !strings.Contains(string(b), want) {
		t.Errorf("the kernel puts the process in\n%s\nwant a line ending %q", b, want)
	}
	if err := g.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range g.Paths() {
		if _, err := os.Stat(filepath.Dir(d)); !os.IsNotExist(err) {
			t.Errorf("%s left after its last group went", filepath.Dir(d))
		}
	}
	if m.place != nil && m.place.Shared != "" {
		// Another jvmfit (a test package beside this one) may hold it.
		deadline := time.Now().Add(time.Second)
		for {
			ents, _ := filepath.Glob(filepath.Join(m.place.Shared, "jvmfit-*"))
			_, err := os.Stat(m.place.Shared)
			if len(ents) > 0 || os.IsNotExist(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%s is empty and left behind", m.place.Shared)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
