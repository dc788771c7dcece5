package trial

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
)

// A CPU limit above what jvmfit itself may use is refused before anything
// starts: on a 2-CPU host, or under a parent quota of 1.5 CPUs.
func TestPrepareRefusesMoreCPUsThanJvmfitHas(t *testing.T) {
	a := hostJarApp(t, t.TempDir(), "")
	if _, err := Prepare(Spec{MemoryBytes: 256 << 20, CPUs: 1}, a, ""); err != nil {
		t.Fatalf("prepare with the default java: %v", err)
	}
	defer func(f func() (cgroup.Limits, error)) { hostLimits = f }(hostLimits)
	for _, c := range []struct {
		host  cgroup.Limits
		cpus  float64
		avail string // "" when the limit fits
	}{
		{cgroup.Limits{HostCPUs: 2}, 2, ""},
		{cgroup.Limits{HostCPUs: 2}, 3, "use 2 here"},
		{cgroup.Limits{HostCPUs: 8, CPUQuota: 1.5}, 1.5, ""},
		{cgroup.Limits{HostCPUs: 8, CPUQuota: 1.5}, 2, "use 1.5 here"},
		{cgroup.Limits{HostCPUs: 8, CPUSet: []int{0}}, 2, "use 1 here"},
	} {
		hostLimits = func() (cgroup.Limits, error) { return c.host, nil }
		_, err := Prepare(Spec{MemoryBytes: 256 << 20, CPUs: c.cpus}, a, "")
		switch {
		case c.avail == "" && err != nil:
			t.Errorf("%+v, --cpus %g: refused: %v", c.host, c.cpus, err)
		case c.avail != "" && (err == nil || !strings.Contains(err.Error(), c.avail) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%+v, --cpus %g: got %v, want one line naming %s", c.host, c.cpus, err, c.avail)
		}
	}
}

// A host app's limited trial is refused in Prepare when the registered
// host check (the local backend's cgroups) says this host cannot limit it,
// with the limits asked; an unlimited trial is not asked about.
func TestPrepareAsksTheHostCheck(t *testing.T) {
	a := hostJarApp(t, t.TempDir(), "")
	defer func(f func(cgroup.Spec) error) { hostCheck = f }(hostCheck)
	var asked []cgroup.Spec
	hostCheck = func(l cgroup.Spec) error {
		asked = append(asked, l)
		return &cgroup.PlaceError{Msg: "no cgroup here can hold a trial's limits"}
	}
	_, err := Prepare(Spec{MemoryBytes: 256 << 20, CPUs: 1}, a, "")
	if err == nil || !strings.Contains(err.Error(), "no cgroup here") {
		t.Fatalf("got %v: want the host check's refusal", err)
	}
	if len(asked) != 1 || asked[0].MemoryBytes != 256<<20 || asked[0].CPUs != 1 {
		t.Fatalf("asked %+v: want the trial's limits once", asked)
	}
	if _, err := Prepare(Spec{NoLimits: true}, a, ""); err != nil || len(asked) != 1 {
		t.Errorf("--no-limits: %v, asked %d times: want no question", err, len(asked))
	}
}

// hostJarApp is a host app whose jar is there (an empty one: Prepare looks
// at its manifest, nothing runs it), as a descriptor in dir with extra
// YAML after the jar and ready lines.
func hostJarApp(t *testing.T, dir, extra string) *app.App {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "x.jar"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.NewWriter(f).Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	a, err := app.Parse(filepath.Join(dir, "app.yaml"), []byte("name: x\njar: x.jar\nready: http://127.0.0.1:${port}/\n"+extra))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A host app whose jar, or a library its manifest names, is missing is
// refused before anything runs, in one line saying what to do.
func TestPrepareRefusesAHostAppWithoutItsFiles(t *testing.T) {
	dir := t.TempDir()
	a := hostJarApp(t, dir, "")
	if err := os.Remove(a.Jar); err != nil {
		t.Fatal(err)
	}
	_, err := Prepare(Spec{NoLimits: true}, a, "")
	if err == nil || !strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("missing jar: %v: want one line saying it does not exist", err)
	}
	f, err := os.Create(a.Jar)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	w, _ := z.Create("META-INF/MANIFEST.MF")
	w.Write([]byte("Manifest-Version: 1.0\nClass-Path: lib/netty-buffer.jar\nMain-Class: a.B\n"))
	z.Close()
	f.Close()
	_, err = Prepare(Spec{NoLimits: true}, a, "")
	if err == nil || !strings.Contains(err.Error(), "lib/netty-buffer.jar") {
		t.Fatalf("missing library: %v: want it named", err)
	}
}
