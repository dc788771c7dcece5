package main

import (
	"encoding/json"
	"os"

	"github.com/jvmfit/jvmfit/internal/plan"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
)

// flags --profile --emit prints each form of the plan (the API server
// checks them in internal/report's envtest suite); bad --emit flags are
// one line and exit 2, before anything runs.
func TestFlagsEmit(t *testing.T) {
	clitest.NeedJava(t)
	prof := clitest.Repo("internal", "plan", "testdata", "filecache-tune-profile.json")
	base := []string{"flags", "--java", clitest.Java17, "--memory", "320Mi", "--cpus", "1", "--profile", prof}
	for kind, want := range map[string][]string{
		"k8s":  {"containers:", "- name: orders", "memory: 320Mi", "name: JAVA_TOOL_OPTIONS", "-Xmx"},
		"helm": {"resources:", "env:", "memory: 320Mi", "-XX:MaxMetaspaceSize="},
		"vpa":  {"kind: VerticalPodAutoscaler", "containerName: orders", "minAllowed:", "memory: 320Mi"},
	} {
		out, errs, code := clitest.Run(t, nil, append(base, "--emit", kind, "--emit-name", "orders")...)
		if code != 0 {
			t.Fatalf("--emit %s: exit %d %s", kind, code, errs)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("--emit %s lacks %q:\n%s", kind, w, out)
			}
		}
	}
	for name, args := range map[string][]string{
		"bad kind":   append(base, "--emit", "helmfile"),
		"bad name":   append(base, "--emit", "k8s", "--emit-name", "Orders_1"),
		"name alone": append(base, "--emit-name", "orders"),
		"no profile": {"flags", "--java", clitest.Java17, "--memory", "320Mi", "--emit", "k8s"},
		"format too": append(base, "--emit", "k8s", "--format", "json"),
		"minmem":     {"minmem", "--app", "nope.yaml", "--emit", "kustomize"},
		"tune json":  {"tune", "--app", "nope.yaml", "--emit", "vpa", "--json"},
	} {
		out, errs, code := clitest.Run(t, nil, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "--emit") {
			t.Errorf("%s: exit %d stdout %q stderr %q; want exit 2 and one line about --emit", name, code, out, errs)
		}
	}
}

// profile diff: the CLI line for a production profile with 1.5× the live
// set, and its bad input.
func TestProfileDiffCLI(t *testing.T) {
	dir := t.TempDir()
	lab := clitest.Repo("internal", "plan", "testdata", "filecache-tune-profile.json")
	prod := dir + "/prod.json"
	writeScaledLive(t, lab, prod, 1.5)
	out, errs, code := clitest.Run(t, nil, "profile", "diff", "--goal", "footprint", "--limit", "100Mi", lab, prod)
	if code != 0 || !strings.Contains(out, "heap live set") || !strings.Contains(out, "needs limit") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	for name, args := range map[string][]string{
		"one file":  {"profile", "diff", lab},
		"missing":   {"profile", "diff", lab, dir + "/none.json"},
		"bad limit": {"profile", "diff", "--limit", "lots", lab, prod},
		"bad goal":  {"profile", "diff", "--goal", "fast", lab, prod},
	} {
		out, errs, code := clitest.Run(t, nil, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d stdout %q stderr %q; want exit 2 and one line", name, code, out, errs)
		}
	}
}

// writeScaledLive writes src's profile with its live set times f to dst.
func writeScaledLive(t *testing.T, src, dst string, f float64) {
	t.Helper()
	p, err := plan.LoadProfile(src)
	if err != nil {
		t.Fatal(err)
	}
	p.LiveHeapBytes = int64(float64(p.LiveHeapBytes) * f)
	b, _ := json.Marshal(p)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
