//go:build linux

package hsperf

import (
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

func TestPathForUsesTheProcessOwner(t *testing.T) {
	// pid 1 belongs to root in every namespace we run in.
	if got := PathFor(1); got != "/tmp/hsperfdata_root/1" {
		t.Errorf("PathFor(1) = %s", got)
	}
	self := PathFor(os.Getpid())
	if !strings.HasPrefix(self, "/tmp/hsperfdata_") || !strings.HasSuffix(self, "/"+itoa(os.Getpid())) {
		t.Errorf("PathFor(self) = %s", self)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestPathForAnotherUser(t *testing.T) {
	prereq.Root(t)
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start a process as uid 65534: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	u, err := user.LookupId("65534")
	if err != nil {
		t.Skip("no passwd entry for uid 65534")
	}
	want := "/tmp/hsperfdata_" + u.Username + "/" + strconv.Itoa(cmd.Process.Pid)
	if got := PathFor(cmd.Process.Pid); got != want {
		t.Errorf("PathFor(process of %s) = %s, want %s", u.Username, got, want)
	}
}
