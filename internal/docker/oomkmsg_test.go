//go:build linux

package docker

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// kmsgFixture returns the records one a read, as /dev/kmsg does, with the
// errors the device gives: EPIPE once records were overwritten, EAGAIN at
// the end.
func kmsgFixture(records ...string) func([]byte) (int, error) {
	i := 0
	return func(b []byte) (int, error) {
		if i == len(records) {
			return 0, unix.EAGAIN
		}
		r := records[i]
		i++
		if r == "EPIPE" {
			return 0, unix.EPIPE
		}
		return copy(b, r), nil
	}
}

const (
	fixtureCg    = "/process_api/17fa/jvmfit-2236/docker/libpod-400a9c"
	fixtureOther = "/process_api/17fa/jvmfit-2236/docker/libpod-400a9d"
)

func oomRecord(memcg string) string {
	return "6,15240,5980425191,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=libpod-x,mems_allowed=0," +
		"oom_memcg=" + memcg + ",task_memcg=" + memcg + ",task=java,pid=7561,uid=0\n"
}

func TestScanKmsgFindsTheContainersOOM(t *testing.T) {
	read := kmsgFixture(
		"4,15230,5980425000,-;java invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n",
		"EPIPE",
		// The same text in another kind of record, and its dictionary line.
		"6,15231,5980425100,-;memory: usage 65536kB, limit 65536kB, failcnt 10\n SUBSYSTEM=oom_memcg="+fixtureCg+"\n",
		oomRecord(fixtureOther),
		oomRecord(fixtureCg),
	)
	found, err := scanKmsg(read, fixtureCg)
	if err != nil || !found {
		t.Errorf("scanKmsg = %v, %v; want the record of %s found", found, err, fixtureCg)
	}
}

func TestScanKmsgOtherContainersOnly(t *testing.T) {
	for _, memcg := range []string{fixtureCg, fixtureCg[:len(fixtureCg)-1]} {
		// A prefix or a sibling of the container's path is not it.
		read := kmsgFixture(oomRecord(fixtureOther), oomRecord(fixtureCg+"0"), oomRecord("/"))
		found, err := scanKmsg(read, memcg)
		if err != nil || found {
			t.Errorf("scanKmsg(%s) = %v, %v; want not found", memcg, found, err)
		}
	}
}

func TestScanKmsgReadError(t *testing.T) {
	read := func([]byte) (int, error) { return 0, unix.EPERM }
	if found, err := scanKmsg(read, fixtureCg); err == nil || found {
		t.Errorf("scanKmsg = %v, %v; want the read error", found, err)
	}
}

func TestOOMMemcg(t *testing.T) {
	for rec, want := range map[string]string{
		oomRecord(fixtureCg): fixtureCg,
		"6,1,2,-;oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/a,task_memcg=/a/b,task=dd,pid=1,uid=0": "/a",
		"6,1,2,-;Memory cgroup out of memory: Killed process 1 (dd)":                                    "",
		"6,1,2,-;printed oom-kill:oom_memcg=/a":                                                         "",
		"no prefix oom-kill:oom_memcg=/a":                                                               "",
	} {
		got, ok := oomMemcg([]byte(rec))
		if got != want || ok != (want != "") {
			t.Errorf("oomMemcg(%.60q) = %q, %v; want %q", rec, got, ok, want)
		}
	}
}

// TestKernelLogsTheOOMOfTheGroup: a real OOM kill in a 16 MiB group is
// found in /dev/kmsg by the group's path, also after the group is gone;
// a group of the same parent where nothing ran out is not.
func TestKernelLogsTheOOMOfTheGroup(t *testing.T) {
	dir := oomGroup(t, "kmsg-killed")
	clean := oomGroup(t, "kmsg-clean")
	if _, err := os.Stat(kmsgPath); err != nil {
		prereq.Fail(t, "the kernel log "+kmsgPath+" ("+err.Error()+")", "run as root on a host or container with /dev/kmsg")
	}
	memcg, err := memcgPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(memcg, "/oomevents-kmsg-killed") || !strings.HasPrefix(memcg, "/") {
		t.Fatalf("memcg path %q of %s", memcg, dir)
	}
	err = runIn(dir, "dd if=/dev/zero of=/dev/null bs=64M count=1")
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("dd in 16 MiB ended with %v, want SIGKILL", err)
	}
	if err := runIn(clean, "true"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Rmdir(dir); err != nil {
		t.Fatal(err)
	}
	if found, err := kmsgOOM(kmsgPath, memcg); err != nil || !found {
		t.Errorf("kernel log: OOM in %s found %v (%v), want found", memcg, found, err)
	}
	if !(Engine{Bin: "podman"}).kernelLoggedOOM(dir) {
		t.Errorf("podman: kernelLoggedOOM(%s) false", dir)
	}
	if Default().kernelLoggedOOM(dir) {
		t.Errorf("docker: the kernel log was read (Docker reports OOM kills itself)")
	}
	if (Engine{Bin: "podman"}).kernelLoggedOOM(clean) {
		t.Errorf("podman: an OOM found in %s, where nothing ran out of memory", clean)
	}
}

// TestKmsgUnreadable: a device that cannot be opened is an error, which
// the verdict takes as no evidence.
func TestKmsgUnreadable(t *testing.T) {
	if found, err := kmsgOOM(t.TempDir()+"/kmsg", fixtureCg); err == nil || found {
		t.Errorf("kmsgOOM of a missing device = %v, %v; want an error", found, err)
	}
}
