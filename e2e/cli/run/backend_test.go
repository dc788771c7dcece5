package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/image"
)

// The backend flags refuse bad input with one line and exit 2.
func TestBackendFlagsBadInput(t *testing.T) {
	clitest.NeedJava(t)
	desc, _ := filepath.Abs("../../../workloads/filecache/app.yaml")
	db := filepath.Join(t.TempDir(), "j.db")
	for name, args := range map[string][]string{
		"unknown backend":   {"--backend", "nomad"},
		"k8s without image": {"--backend", "k8s"},
		"parallel 0":        {"--parallel", "0"},
		"local dry run":     {"--dry-run"},
		"local parallel":    {"--parallel", "2"},
	} {
		_, errOut, code := clitest.Run(t, nil, append([]string{"sweep", "--app", desc, "--java", clitest.Java17, "--db", db}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q: want exit 2 and one line", name, code, errOut)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused command created the database")
	}
}

// --dry-run writes every cell's Job and applies and stores nothing: it
// needs no cluster at all.
func TestSweepDryRunWritesTheJobs(t *testing.T) {
	// The plan is made for the image's own JDK, so the image must be here
	// (built offline from the host's JDK 17), though no container runs.
	clitest.FilecacheImage(t)
	scenario, _ := filepath.Abs("../../../workloads/filecache/scenario.yaml")
	dir := t.TempDir()
	db, out := filepath.Join(dir, "j.db"), filepath.Join(dir, "jobs")
	_, errOut, code := clitest.Run(t, []string{"KUBECONFIG=/nonexistent"}, "sweep", "--image", image.FilecacheRef,
		"--ready", "http://127.0.0.1:8080/actuator/health", "--scenario", scenario, "--db", db,
		"--memory", "192Mi,256Mi", "--cpus", "1,2", "--backend", "k8s", "--dry-run="+out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(out, "jvmfit-*.yaml"))
	if len(files) != 4 {
		t.Fatalf("%d manifests, want one per cell (4): %s", len(files), errOut)
	}
	all := ""
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all += string(b)
	}
	for _, want := range []string{"memory: 192Mi", "memory: 256Mi", `cpu: "2"`, "image: " + image.FilecacheRef, "shareProcessNamespace: true", "kind: Job"} {
		if !strings.Contains(all, want) {
			t.Errorf("manifests lack %q", want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a dry run created the results database")
	}
	if !strings.Contains(errOut, "dry run: ") {
		t.Errorf("stderr %q", errOut)
	}
}
