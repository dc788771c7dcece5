package experiment

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/jvmfit/jvmfit/"

// floors are ARCHITECTURE.md's floors, top to bottom: a package imports
// only packages on its own floor or below. A package missing from this
// table fails the test: place it (and in ARCHITECTURE.md) first.
var floors = map[string]int{
	// commands: jvmfit, and the helper programs of benchmarks and tests
	// (e2e/cli: the real-JVM tests of the jvmfit binary, a package per
	// group of commands, and clitest, which builds and runs it for them).
	"cmd/jvmfit": 7, "docs": 7, "bench/loadtarget": 7, "e2e/k8s/testimage": 7, "e2e/cgroupv2": 7,
	"e2e/cli/clitest": 7, "e2e/cli/run": 7, "e2e/cli/experiments": 7, "e2e/cli/tune": 7, "e2e/cli/initcmd": 7,
	// output: renders values and the store; only the command imports it.
	"internal/report": 6,
	// experiments: tune's search over a Session, the Session and strategies.
	"internal/experiment/tune": 5,
	"internal/experiment":      4,
	// what reads or drives trials from beside them: the store, the
	// profile of a trial, and the backends, each a trial.Backend: local
	// cgroups, containers (Docker, Podman; also an image's JDK), a
	// Kubernetes Job per trial, the rule for this machine (backend), and
	// the conformance suite every backend passes (backendtest).
	"internal/store":   3,
	"internal/profile": 3,
	"internal/backend": 3, "internal/backend/local": 3, "internal/backend/container": 3, "internal/backend/kube": 3,
	"internal/backend/backendtest": 3,
	// one trial as steps.
	"internal/trial": 2,
	// runners, tools and the launcher.
	"internal/sandbox": 1, "internal/service": 1, "internal/service/e2e": 1, "internal/docker": 1, "internal/image": 1,
	"internal/load": 1, "internal/load/engine": 1, "internal/load/record": 1, "internal/load/scenario": 1, "internal/load/loadtest": 1,
	"internal/probe": 1, "internal/plan": 1, "internal/jvmopts": 1, "internal/anchor": 1, "internal/app": 1,
	"internal/launcher": 1, "internal/detect": 1, "internal/scaffold": 3, "internal/doctor": 1, "internal/launch": 1, "internal/hsperf": 1, "internal/hsperf/jvmtest": 1,
	// base: no rules of jvmfit's above them.
	"internal/cgroup": 0, "internal/upstream": 0, "internal/jdk": 0, "internal/size": 0, "internal/judge": 0, "internal/cleanup": 0, "internal/prereq": 0, "internal/owner": 0,
}

// Imports the floors alone would allow but the house forbids: judge is
// pure rules over plain values; cmd leaves the backends and the kernel to
// the floors below it (one call into experiment, trial or launcher): it
// imports no backend, which experiment chooses from its config; trial
// knows the Backend interface, not what a backend runs its app with (a
// sandbox's cgroups, an engine's containers).
var forbidden = map[string][]string{
	"internal/judge": {"internal/"},
	"internal/trial": {"internal/sandbox", "internal/docker"},
	"cmd/jvmfit": {"internal/cgroup", "internal/sandbox", "internal/docker", "internal/launch", "internal/service",
		"internal/backend", "internal/backend/"},
}

// Every jvmfit package's own imports (go list) go down the floors or stay
// on their own; experiment never reaches report, even indirectly.
func TestImportsKeepToTheFloors(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goBin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list listed %d packages; is this the module?", len(lines))
	}
	for _, l := range lines {
		f := strings.Fields(l)
		pkg := strings.TrimPrefix(f[0], module)
		floor, ok := floors[pkg]
		if !ok {
			t.Errorf("%s is on no floor: add it to the table here and to ARCHITECTURE.md", pkg)
			continue
		}
		for _, imp := range f[1:] {
			dep, own := strings.CutPrefix(imp, module)
			if !own {
				continue
			}
			if df, ok := floors[dep]; ok && df > floor {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports go down the floors", pkg, floor, dep, df)
			}
			for _, no := range forbidden[pkg] {
				if dep == no || strings.HasSuffix(no, "/") && strings.HasPrefix(dep, no) {
					t.Errorf("%s imports %s, which the house forbids it", pkg, dep)
				}
			}
		}
	}
}

// The floors run one way: experiment decides with internal/judge and never
// reads its own answers back through the report (which sits above the store
// and renders); judge is pure rules over plain values and imports no jvmfit
// package at all. go list -deps sees every import, direct or not.
func TestExperimentDoesNotImportReport(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for _, pkg := range []string{".", "./tune", "../judge"} {
		out, err := exec.Command(goBin, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 3 {
			t.Fatalf("go list -deps %s listed %d packages; is this the module?", pkg, len(deps))
		}
		for _, d := range deps {
			own := strings.HasPrefix(d, module) && d != module+"internal/judge"
			if d == module+"internal/report" || (pkg == "../judge" && own) {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
	}
}
