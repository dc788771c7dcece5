package experiment

import (
	"os/exec"
	"strings"
	"testing"
)

// The floors run one way: experiment decides with internal/judge and never
// reads its own answers back through the report (which sits above the store
// and renders); judge is pure rules over plain values and imports no jvmfit
// package at all. go list -deps sees every import, direct or not.
func TestExperimentDoesNotImportReport(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for _, pkg := range []string{".", "../judge"} {
		out, err := exec.Command(goBin, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 3 {
			t.Fatalf("go list -deps %s listed %d packages; is this the module?", pkg, len(deps))
		}
		for _, d := range deps {
			own := strings.HasPrefix(d, "github.com/jvmfit/jvmfit/") && d != "github.com/jvmfit/jvmfit/internal/judge"
			if d == "github.com/jvmfit/jvmfit/internal/report" || (pkg == "../judge" && own) {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
	}
}
