//go:build linux

package cgroup

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"

	"github.com/jvmfit/jvmfit/internal/prereq"
)

// There is no systemd on this machine, so these tests run jvmfit's real
// D-Bus client (go-systemd, as runc's driver uses it) against a private
// dbus-daemon on which a small fake org.freedesktop.systemd1 answers
// StartTransientUnit and StopUnit and sends JobRemoved, as systemd does.

// privateBus starts a dbus-daemon of the system type on a socket of the
// test's own and points DBUS_SYSTEM_BUS_ADDRESS at it.
func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		prereq.Fail(t, "dbus-daemon", "install the Debian package dbus-daemon (bash .ci/install test does)")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/>
    <allow send_type="method_call"/><allow send_type="signal"/>
    <allow send_type="method_return"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="signal"/>
    <allow receive_type="method_return"/><allow receive_type="error"/>
  </policy>
</busconfig>
`), 0o644)
	cmd := exec.Command(bin, "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon gave no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	t.Setenv("DBUS_SYSTEM_BUS_ADDRESS", addr)
	return addr
}

type busProp struct {
	Name  string
	Value dbus.Variant
}

type busAux struct {
	Name  string
	Props []busProp
}

// busSystemd is the fake org.freedesktop.systemd1.Manager. onStart plays
// what systemd does to the cgroup tree; result is the job's ending.
type busSystemd struct {
	conn    *dbus.Conn
	mu      sync.Mutex
	started []string
	props   map[string]dbus.Variant
	stopped []string
	result  string
	onStart func(unit, slice string, pid int) error
	job     int
}

func (f *busSystemd) finish(unit, result string) dbus.ObjectPath {
	f.job++
	job := dbus.ObjectPath(fmt.Sprintf("/org/freedesktop/systemd1/job/%d", f.job))
	id := uint32(f.job)
	// systemd signals the job's end after answering the call.
	go f.conn.Emit("/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager.JobRemoved", id, job, unit, result)
	return job
}

func (f *busSystemd) StartTransientUnit(name, mode string, props []busProp, aux []busAux) (dbus.ObjectPath, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, name+" "+mode)
	f.props = map[string]dbus.Variant{}
	for _, p := range props {
		f.props[p.Name] = p.Value
	}
	result := f.result
	if f.onStart != nil {
		slice, _ := f.props["Slice"].Value().(string)
		pids, _ := f.props["PIDs"].Value().([]uint32)
		if len(pids) != 1 {
			return "", dbus.MakeFailedError(fmt.Errorf("want one pid, got %v", pids))
		}
		if err := f.onStart(name, slice, int(pids[0])); err != nil {
			result = "failed"
		}
	}
	return f.finish(name, result), nil
}

func (f *busSystemd) StopUnit(name, mode string) (dbus.ObjectPath, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, name)
	return f.finish(name, "done"), nil
}

// fakeSystemdOnBus claims org.freedesktop.systemd1 on the bus at addr.
func fakeSystemdOnBus(t *testing.T, addr string) *busSystemd {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &busSystemd{conn: conn, result: "done"}
	const path = "/org/freedesktop/systemd1"
	if err := conn.Export(f, path, "org.freedesktop.systemd1.Manager"); err != nil {
		t.Fatal(err)
	}
	if _, err := prop.Export(conn, path, prop.Map{"org.freedesktop.systemd1.Manager": {
		"Version": {Value: "255-fake", Emit: prop.EmitFalse},
	}}); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName("org.freedesktop.systemd1", dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("cannot own org.freedesktop.systemd1: %v %v", r, err)
	}
	return f
}

// The client's calls as systemd receives them: the unit, mode "replace",
// Slice, PIDs and Delegate=yes; the job's end is waited for; a failed job
// is an error; StopUnit reaches systemd too.
func TestSystemdClientOverDBus(t *testing.T) {
	fake := fakeSystemdOnBus(t, privateBus(t))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := DialSystemd(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(); err != nil || !strings.Contains(v, "255-fake") {
		t.Fatalf("version %q, %v", v, err)
	}
	if err := s.StartScope(ctx, "jvmfit-42.scope", "jvmfit.slice", 4242); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	if len(fake.started) != 1 || fake.started[0] != "jvmfit-42.scope replace" {
		t.Errorf("started %q", fake.started)
	}
	want := map[string]any{"Slice": "jvmfit.slice", "PIDs": []uint32{4242}, "Delegate": true}
	for k, w := range want {
		if got := fake.props[k].Value(); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("property %s = %v, want %v", k, got, w)
		}
	}
	fake.result = "failed"
	fake.mu.Unlock()
	if err := s.StartScope(ctx, "jvmfit-43.scope", "jvmfit.slice", 4243); err == nil || !strings.Contains(err.Error(), `"failed"`) {
		t.Errorf("a failed job: %v", err)
	}
	if err := s.StopUnit(ctx, "jvmfit-42.slice"); err != nil {
		t.Fatal(err)
	}
	if len(fake.stopped) != 1 || fake.stopped[0] != "jvmfit-42.slice" {
		t.Errorf("stopped %q", fake.stopped)
	}
}

// The whole systemd placement over real D-Bus: a session scope holding
// processes, systemd answering; jvmfit asks for its scope, lands in its
// leaf, and its groups go in the scope.
func TestPlaceSystemdOverDBus(t *testing.T) {
	fake := fakeSystemdOnBus(t, privateBus(t))
	root := layout(t, "/user.slice/user-0.slice/session-1.scope", "/", map[string]cgFix{
		"/":                        {allControllers, "memory pids", "", true},
		"/user.slice":              {"memory pids", "memory pids", "", false},
		"/user.slice/user-0.slice": {"memory pids", "memory pids", "", false},
		"/user.slice/user-0.slice/session-1.scope": {"memory pids", "", "900 " + self, false},
	})
	k := &fakeKernel{}
	m := fixtureManager(t, root, k)
	sys := fakeSystemd{root: root, mount: k.mount, k: k, calls: new([]string)}
	fake.onStart = func(unit, slice string, pid int) error { return sys.StartScope(context.Background(), unit, slice, pid) }
	old := SystemdConnect
	SystemdConnect = func(string) (Systemd, error) { return DialSystemd(5 * time.Second) }
	t.Cleanup(func() { SystemdConnect = old })
	placeNotices(t)
	scope := cgPath(root, "/jvmfit.slice/jvmfit-"+self+".scope")
	g := createIn(t, m, scope)
	defer removeAll(t, g)
	if got := grpRead(t, filepath.Join(scope, leafName), "cgroup.procs"); got != self {
		t.Errorf("scope leaf holds %q, want jvmfit (%s)", got, self)
	}
	if d, _ := fake.props["Delegate"].Value().(bool); !d {
		t.Error("the scope was not asked with Delegate=yes")
	}
	if pid := strconv.Itoa(os.Getpid()); !strings.Contains(fmt.Sprint(fake.props["PIDs"].Value()), pid) {
		t.Errorf("PIDs %v, want jvmfit's %s", fake.props["PIDs"].Value(), pid)
	}
}
