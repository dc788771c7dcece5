//go:build linux

package cgroup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layouts of issue 20, as fixture trees. self is this process's pid
// as the fixtures list it in cgroup.procs.
var self = strconv.Itoa(os.Getpid())

const allControllers = "cpuset cpu io memory hugetlb pids"

// layout writes a v2 tree: own is this process's cgroup path, dirs maps a
// cgroup path to its offered controllers, enabled controllers and procs.
type cgFix struct {
	offers, enables, procs string
	real                   bool // the real hierarchy root: no cgroup.type
}

func layout(t *testing.T, own string, mountRoot string, dirs map[string]cgFix) string {
	t.Helper()
	files := map[string]string{
		"proc/self/cgroup":    "0::" + own + "\n",
		"proc/self/mountinfo": "40 31 0:37 " + mountRoot + " /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n",
	}
	for p, d := range dirs {
		base := filepath.Join("sys/fs/cgroup", p)
		files[base+"/cgroup.controllers"] = d.offers + "\n"
		files[base+"/cgroup.subtree_control"] = d.enables + "\n"
		files[base+"/cgroup.procs"] = strings.ReplaceAll(d.procs, " ", "\n") + "\n"
		if !d.real {
			files[base+"/cgroup.type"] = "domain\n"
		}
	}
	return writeFixture(t, files)
}

func cgPath(root, p string) string { return filepath.Join(root, "sys/fs/cgroup", p) }

// placeNotices captures what placement says on stderr.
func placeNotices(t *testing.T) *[]string {
	var got []string
	old := PlaceNotice
	PlaceNotice = func(s string) { got = append(got, s) }
	t.Cleanup(func() { PlaceNotice = old })
	return &got
}

// createIn makes a group and checks it lands at want with its limits.
func createIn(t *testing.T, m *Manager, want string) Group {
	t.Helper()
	g, err := m.Create("t", Spec{MemoryBytes: 64 << 20, CPUs: 1, CPUSet: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Path() != filepath.Join(want, m.baseName(), "t") {
		t.Fatalf("group at %s, want below %s", g.Path(), want)
	}
	if got := grpRead(t, g.Path(), "memory.max"); got != "67108864" {
		t.Errorf("memory.max = %q", got)
	}
	if got := grpRead(t, g.Path(), "cpuset.cpus"); got != "0" {
		t.Errorf("cpuset.cpus = %q", got)
	}
	return g
}

func removeAll(t *testing.T, g Group) {
	t.Helper()
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
}

func TestPlaceHierarchyRoot(t *testing.T) {
	root := layout(t, "/", "/", map[string]cgFix{"/": {allControllers, "", self, true}})
	notes := placeNotices(t)
	m := fixtureManager(t, root, &fakeKernel{})
	p, err := FindPlace(root)
	if err != nil || p.Kind != PlaceRoot {
		t.Fatalf("place %+v, %v", p, err)
	}
	g := createIn(t, m, cgPath(root, "/"))
	removeAll(t, g)
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "enabled +cpu +cpuset +memory +pids in "+cgPath(root, "/cgroup.subtree_control")) {
		t.Errorf("notices %q", *notes)
	}
	if _, err := os.Stat(filepath.Join(cgPath(root, "/"), m.baseName())); !os.IsNotExist(err) {
		t.Errorf("base left: %v", err)
	}
}

// (b) a container: jvmfit at its cgroup namespace's root, which holds
// processes (the mount's root is the container's cgroup, and the directory
// has cgroup.type: not the real root).
func TestPlaceNamespaceRootHoldingProcesses(t *testing.T) {
	root := layout(t, "/", "/", map[string]cgFix{"/": {allControllers, "", "1 " + self + " 77", false}})
	notes := placeNotices(t)
	m := fixtureManager(t, root, &fakeKernel{})
	top := cgPath(root, "/")
	// The kernel refuses to delegate while the top holds processes.
	if err := m.k.Write(top, "cgroup.subtree_control", "+memory"); err == nil || !strings.Contains(err.Error(), "device or resource busy") {
		t.Fatalf("fixture kernel let a cgroup with processes delegate: %v", err)
	}
	g := createIn(t, m, top)
	if got := grpRead(t, filepath.Join(top, leafName), "cgroup.procs"); strings.Fields(got)[0] != "1" || len(strings.Fields(got)) != 3 {
		t.Errorf("leaf holds %q, want 1, jvmfit and 77", got)
	}
	if got := grpRead(t, top, "cgroup.procs"); got != "" {
		t.Errorf("top still holds %q", got)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "moved 3 process(es) of "+top+" into init") {
		t.Errorf("notices %q", *notes)
	}
	removeAll(t, g)
}

// (a) a systemd-like leaf holding processes, controllers available above,
// no D-Bus: the nearest ancestor without processes gets jvmfit.slice.
func TestPlaceSessionScopeWithoutDBus(t *testing.T) {
	root := layout(t, "/user.slice/user-0.slice/session-1.scope", "/", map[string]cgFix{
		"/":                        {allControllers, "cpu cpuset io memory pids", "1", true},
		"/user.slice":              {"cpu cpuset io memory pids", "cpu memory pids", "", false},
		"/user.slice/user-0.slice": {"cpu memory pids", "memory pids", "", false},
		"/user.slice/user-0.slice/session-1.scope": {"memory pids", "", "900 " + self, false},
	})
	m := fixtureManager(t, root, &fakeKernel{})
	parent := cgPath(root, "/user.slice/user-0.slice")
	g, err := m.Create("t", Spec{MemoryBytes: 64 << 20, CPUs: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(parent, sliceName, m.baseName(), "t"); g.Path() != want {
		t.Fatalf("group at %s, want %s", g.Path(), want)
	}
	if got := grpRead(t, g.Path(), "cpu.max"); got != "50000 100000" {
		t.Errorf("cpu.max = %q", got)
	}
	if got := grpRead(t, parent, "cgroup.subtree_control"); got != "cpu memory pids" {
		t.Errorf("%s enables %q", parent, got)
	}
	removeAll(t, g)
	if _, err := os.Stat(filepath.Join(parent, sliceName)); !os.IsNotExist(err) {
		t.Errorf("jvmfit.slice left: %v", err)
	}
}

// (c) the measured host: /agent enables only memory and holds no process,
// the shell's /agent/<id> holds processes, the root enables everything.
func TestPlaceParentEnablesOnlyMemory(t *testing.T) {
	root := layout(t, "/agent/a1", "/", map[string]cgFix{
		"/":         {allControllers, "cpuset cpu io memory hugetlb pids", "", true},
		"/agent":    {allControllers, "memory", "", false},
		"/agent/a1": {"memory", "", "500 " + self, false},
	})
	notes := placeNotices(t)
	m := fixtureManager(t, root, &fakeKernel{})
	agent := cgPath(root, "/agent")
	g := createIn(t, m, filepath.Join(agent, sliceName))
	if got := grpRead(t, agent, "cgroup.subtree_control"); got != "cpu cpuset memory pids" {
		t.Errorf("/agent enables %q", got)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "enabled +cpu +cpuset +pids in "+agent) {
		t.Errorf("notices %q", *notes)
	}
	// A second group reuses the place and says nothing more.
	g2, err := m.Create("t2", Spec{MemoryBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(*notes) != 1 {
		t.Errorf("said twice: %q", *notes)
	}
	removeAll(t, g)
	removeAll(t, g2)
	if ents, _ := os.ReadDir(agent); len(ents) != 5 { // a1 + four interface files
		t.Errorf("left in /agent: %v", ents)
	}
}

// fakeSystemd plays systemd's StartTransientUnit on the fixture: the scope
// is made in the slice and the pid moves there.
type fakeSystemd struct {
	root, mount string
	k           *fakeKernel
	calls       *[]string
}

func (s fakeSystemd) Version() (string, error)               { return "255", nil }
func (s fakeSystemd) Close()                                 {}
func (s fakeSystemd) StopUnit(context.Context, string) error { return nil }
func (s fakeSystemd) StartScope(_ context.Context, unit, slice string, pid int) error {
	*s.calls = append(*s.calls, slice+"/"+unit+" pid "+strconv.Itoa(pid))
	sl := filepath.Join(s.mount, slice)
	_ = s.k.Mkdir(sl)
	if err := s.k.Write(s.mount, "cgroup.subtree_control", "+memory +cpu +pids +cpuset"); err != nil {
		return err
	}
	if err := s.k.Write(sl, "cgroup.subtree_control", "+memory +cpu +pids +cpuset"); err != nil {
		return err
	}
	if err := s.k.Mkdir(filepath.Join(sl, unit)); err != nil {
		return err
	}
	if err := s.k.Write(filepath.Join(sl, unit), "cgroup.procs", strconv.Itoa(pid)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.root, "proc/self/cgroup"), []byte("0::/"+slice+"/"+unit+"\n"), 0o644)
}

func TestPlaceSystemdScope(t *testing.T) {
	root := layout(t, "/user.slice/user-0.slice/session-1.scope", "/", map[string]cgFix{
		"/":                        {allControllers, "memory pids", "", true},
		"/user.slice":              {"memory pids", "memory pids", "", false},
		"/user.slice/user-0.slice": {"memory pids", "memory pids", "", false},
		"/user.slice/user-0.slice/session-1.scope": {"memory pids", "", "900 " + self, false},
	})
	k := &fakeKernel{}
	m := fixtureManager(t, root, k)
	var calls []string
	old := SystemdConnect
	SystemdConnect = func(string) (Systemd, error) {
		return fakeSystemd{root: root, mount: k.mount, k: k, calls: &calls}, nil
	}
	t.Cleanup(func() { SystemdConnect = old })
	notes := placeNotices(t)
	p, err := FindPlace(root)
	if err != nil || p.Kind != PlaceSystemd || len(calls) != 0 {
		t.Fatalf("FindPlace: %+v %v, calls %v (it must change nothing)", p, err, calls)
	}
	scope := cgPath(root, "/jvmfit.slice/jvmfit-"+self+".scope")
	g := createIn(t, m, scope)
	if len(calls) != 1 || calls[0] != "jvmfit.slice/jvmfit-"+self+".scope pid "+self {
		t.Errorf("systemd asked %q", calls)
	}
	if got := grpRead(t, filepath.Join(scope, leafName), "cgroup.procs"); got != self {
		t.Errorf("scope leaf holds %q, want jvmfit", got)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "Delegate=yes") {
		t.Errorf("notices %q", *notes)
	}
	removeAll(t, g)
}

// Nothing works: a container whose namespace root holds processes and was
// handed only memory and pids.
func TestPlaceNothingWorksNamesLayout(t *testing.T) {
	root := layout(t, "/", "/", map[string]cgFix{"/": {"memory pids", "", "1 " + self, false}})
	m := fixtureManager(t, root, &fakeKernel{})
	before := snapshot(t, root)
	_, err := m.Create("t", Spec{MemoryBytes: 64 << 20})
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	for _, want := range []string{cgPath(root, "/"), `offers "memory pids"`, "holds 2 process(es)", "fix:", "--cgroupns=private"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("refusal is not one line: %q", msg)
	}
	if _, ok := err.(*PlaceError); !ok {
		t.Errorf("refusal is %T, want *PlaceError (exit 2)", err)
	}
	if snapshot(t, root) != before {
		t.Error("a refusal changed the tree")
	}
}

// systemd answers but refuses the scope: the ancestor's sub-tree is used,
// and the notice says why.
func TestPlaceSystemdRefusesFallsBack(t *testing.T) {
	root := layout(t, "/user.slice/user-0.slice/session-1.scope", "/", map[string]cgFix{
		"/":                        {allControllers, "cpu cpuset memory pids", "", true},
		"/user.slice":              {"cpu cpuset memory pids", "cpu memory pids", "", false},
		"/user.slice/user-0.slice": {"cpu memory pids", "cpu memory pids", "", false},
		"/user.slice/user-0.slice/session-1.scope": {"cpu memory pids", "", "900 " + self, false},
	})
	m := fixtureManager(t, root, &fakeKernel{})
	old := SystemdConnect
	SystemdConnect = func(string) (Systemd, error) { return refusingSystemd{}, nil }
	t.Cleanup(func() { SystemdConnect = old })
	notes := placeNotices(t)
	g, err := m.Create("t", Spec{MemoryBytes: 64 << 20, CPUs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer removeAll(t, g)
	if want := cgPath(root, "/user.slice/user-0.slice/jvmfit.slice"); filepath.Dir(filepath.Dir(g.Path())) != want {
		t.Errorf("group at %s, want below %s", g.Path(), want)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "Access denied") || !strings.Contains((*notes)[0], "using ") {
		t.Errorf("notices %q", *notes)
	}
}

type refusingSystemd struct{}

func (refusingSystemd) Version() (string, error)               { return "255", nil }
func (refusingSystemd) Close()                                 {}
func (refusingSystemd) StopUnit(context.Context, string) error { return nil }
func (refusingSystemd) StartScope(context.Context, string, string, int) error {
	return fmt.Errorf("Access denied")
}

// A cgroup namespace entered without mounting cgroup2 anew (unshare
// --cgroup alone): mountinfo shows the mount's root as "/..", and
// /proc/self/cgroup says "/" for the namespace's root, /host/ns1 here.
// jvmfit finds itself by its pid and treats /host/ns1 as the top it sees:
// the namespace-root placement, never the real root above it.
func TestPlaceNamespaceWithoutRemount(t *testing.T) {
	root := layout(t, "/", "/../..", map[string]cgFix{
		"/":         {allControllers, "cpu cpuset io memory pids", "", true},
		"/host":     {"cpu cpuset io memory pids", "cpu cpuset io memory pids", "", false},
		"/host/ns1": {"cpu cpuset io memory pids", "", "1 " + self, false},
	})
	os.Remove(cgPath(root, "/cgroup.type")) // the real root
	h, err := ReadHierarchy(root)
	if err != nil {
		t.Fatal(err)
	}
	ns := cgPath(root, "/host/ns1")
	if h.Dir("") != ns || h.Mounts[""] != ns {
		t.Fatalf("own %s, top %s; want both %s", h.Dir(""), h.Mounts[""], ns)
	}
	m := fixtureManager(t, root, &fakeKernel{})
	m.k.(*fakeKernel).mount = ns
	placeNotices(t)
	g := createIn(t, m, ns)
	defer removeAll(t, g)
	if got := grpRead(t, filepath.Join(ns, leafName), "cgroup.procs"); len(strings.Fields(got)) != 2 {
		t.Errorf("leaf holds %q", got)
	}
	if _, err := os.Stat(cgPath(root, "/jvmfit.slice")); err == nil {
		t.Error("jvmfit made groups above its namespace")
	}
}

// The kernel itself lacks the memory controller (a board booted without
// cgroup_enable=memory): the fix is the boot option.
func TestPlaceKernelWithoutMemory(t *testing.T) {
	root := layout(t, "/", "/", map[string]cgFix{"/": {"cpu io pids", "", self, true}})
	_, err := FindPlace(root)
	if err == nil || !strings.Contains(err.Error(), `offers "cpu io pids"`) || !strings.Contains(err.Error(), "cgroup_enable=memory") {
		t.Fatalf("got %v", err)
	}
}
