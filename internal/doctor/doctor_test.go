package doctor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

func fixture(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func fakeDrivers(ctx context.Context, engine string) (string, error) {
	if engine == "docker" {
		return "systemd", nil
	}
	return "", errors.New("not installed")
}

// The measured v2 host of issue 20: /agent enables only memory, the shell
// sits in /agent/a1; one swap device, no swap accounting, PSI on.
func TestDoctorMeasuredHost(t *testing.T) {
	self := strconv.Itoa(os.Getpid())
	root := fixture(t, map[string]string{
		"proc/self/cgroup":                           "0::/agent/a1\n",
		"proc/self/mountinfo":                        "40 31 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"proc/swaps":                                 "Filename Type Size Used Priority\n/swap file 1048572 0 -2\n",
		"proc/pressure/memory":                       "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"sys/fs/cgroup/cgroup.controllers":           "cpuset cpu io memory hugetlb pids\n",
		"sys/fs/cgroup/agent/cgroup.controllers":     "cpuset cpu io memory hugetlb pids\n",
		"sys/fs/cgroup/agent/cgroup.subtree_control": "memory\n",
		"sys/fs/cgroup/agent/cgroup.procs":           "",
		"sys/fs/cgroup/agent/cgroup.type":            "domain\n",
		"sys/fs/cgroup/agent/a1/cgroup.controllers":  "memory\n",
		"sys/fs/cgroup/agent/a1/cgroup.procs":        self + "\n",
		"sys/fs/cgroup/agent/a1/cgroup.type":         "domain\n",
	})
	before, _ := os.ReadFile(filepath.Join(root, "sys/fs/cgroup/agent/cgroup.subtree_control"))
	r := Collect(context.Background(), root, fakeDrivers)
	if r.Refusal != nil {
		t.Fatal(r.Refusal)
	}
	text := strings.Join(r.Lines(), "\n")
	for _, want := range []string{
		"cgroup:      v2 (unified) at " + filepath.Join(root, "sys/fs/cgroup"),
		"place:       ancestor: " + filepath.Join(root, "sys/fs/cgroup/agent/jvmfit.slice/jvmfit-<pid>"),
		"controllers: cpu cpuset memory pids",
		"swap:        1 swap device(s) but not accounted (no memory.swap.max)",
		"psi:         on",
		"tested:      yes: e2e/cgroupv2, the systemd-like and host layouts",
		"engine:      docker: cgroup driver systemd; not yet run on cgroup v2 with the systemd driver in the project's tests",
		"engine:      podman: not installed",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	after, _ := os.ReadFile(filepath.Join(root, "sys/fs/cgroup/agent/cgroup.subtree_control"))
	if string(after) != string(before) {
		t.Error("doctor changed the tree")
	}
	if _, err := os.Stat(filepath.Join(root, "sys/fs/cgroup/agent/jvmfit.slice")); !os.IsNotExist(err) {
		t.Error("doctor made jvmfit.slice")
	}
}

// A container handed only memory: the report ends in the refusal.
func TestDoctorNoPlace(t *testing.T) {
	root := fixture(t, map[string]string{
		"proc/self/cgroup":                 "0::/\n",
		"proc/self/mountinfo":              "40 31 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/cgroup.controllers": "memory\n",
		"sys/fs/cgroup/cgroup.procs":       "1\n",
		"sys/fs/cgroup/cgroup.type":        "domain\n",
	})
	r := Collect(context.Background(), root, fakeDrivers)
	var pe *cgroup.PlaceError
	if !errors.As(r.Refusal, &pe) || !strings.HasPrefix(r.Place, "none: no place for trial cgroups") {
		t.Fatalf("refusal %v, place %q", r.Refusal, r.Place)
	}
	if !strings.Contains(r.Swap, "no swap device") || !strings.Contains(r.PSI, "off") {
		t.Errorf("swap %q psi %q", r.Swap, r.PSI)
	}
}

// This host, for real: cgroup v1 (hybrid) as root, Docker with cgroupfs.
func TestDoctorThisHost(t *testing.T) {
	prereq.Root(t)
	prereq.Docker(t)
	r := Collect(context.Background(), "/", EngineDriver)
	if r.Refusal != nil {
		t.Fatalf("trials cannot get limits here: %v", r.Refusal)
	}
	if !strings.HasPrefix(r.Cgroup, "v1") && !strings.HasPrefix(r.Cgroup, "v2") {
		t.Errorf("cgroup %q", r.Cgroup)
	}
	if !strings.Contains(r.Controllers, "memory") || !strings.Contains(r.Controllers, "cpu") {
		t.Errorf("controllers %q", r.Controllers)
	}
	if len(r.Engines) != 2 || !strings.HasPrefix(r.Engines[0], "docker: cgroup driver ") {
		t.Errorf("engines %q", r.Engines)
	}
	// The project's own machine is the kind of host make test runs on.
	if strings.HasPrefix(r.Cgroup, "v1") && (r.Tested != "yes: make test, on the project's cgroup v1 machine" ||
		!strings.HasSuffix(r.Engines[0], "; real trials in make test (cgroup v1)")) {
		t.Errorf("tested %q, engines %q", r.Tested, r.Engines)
	}
	for _, l := range r.Lines() {
		t.Log(l)
	}
}

// The table of tested hosts: every v2 layout of the guest, the v1 host,
// and what the lead flips once the engines and a real systemd run in the
// guest (EnginesOnV2Tested, SystemdOnV2Tested).
func TestTestedHostKinds(t *testing.T) {
	for kind, want := range map[string]string{
		cgroup.PlaceOwn:       "yes: make test",
		cgroup.PlaceAncestor:  "yes: e2e/cgroupv2",
		cgroup.PlaceNamespace: "yes: e2e/cgroupv2, the container layout",
		cgroup.PlaceRoot:      "yes: e2e/cgroupv2, the root layout",
		"somewhere new":       "no: this placement",
	} {
		if got := placeTested(cgroup.Place{Kind: kind}); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q...", kind, got, want)
		}
	}
	systemd := placeTested(cgroup.Place{Kind: cgroup.PlaceSystemd})
	if SystemdOnV2Tested != strings.HasPrefix(systemd, "yes") {
		t.Errorf("systemd scope: %q with SystemdOnV2Tested %v", systemd, SystemdOnV2Tested)
	}
	v2 := engineTested(2, "docker", "cgroupfs")
	if EnginesOnV2Tested != strings.HasPrefix(v2, "real trials") {
		t.Errorf("docker on v2: %q with EnginesOnV2Tested %v", v2, EnginesOnV2Tested)
	}
	if got := engineTested(2, "podman", "cgroupfs"); EnginesOnV2Tested && !strings.Contains(got, "the podman layout") {
		t.Errorf("podman on v2: %q, want its own layout named", got)
	}
	// The systemd driver on v2 runs only beside a real systemd.
	if got := engineTested(2, "docker", "systemd"); SystemdOnV2Tested != strings.HasPrefix(got, "real trials") {
		t.Errorf("docker's systemd driver on v2: %q with SystemdOnV2Tested %v", got, SystemdOnV2Tested)
	}
	if got := engineTested(1, "docker", "systemd"); !strings.HasPrefix(got, "not run") {
		t.Errorf("systemd driver on v1: %q", got)
	}
}
