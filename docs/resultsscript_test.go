package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A doc quotes only what a bench script wrote (issue 22): a results file's
// `script` names a script of this repository that writes bench/results (its
// first word; a remark may follow, such as large.sh's conversion note), and
// no `recorded` says it was written by hand. A run made by hand is said in
// words, its numbers left to git history.

// notScriptWritten says why the results file r, read under the repository
// root, was not written by a bench script; "" when it was.
func notScriptWritten(root string, r results) string {
	if strings.TrimSpace(r.Recorded) != "" {
		return "it was recorded by hand (its `recorded` field)"
	}
	words := strings.Fields(r.Script)
	if len(words) == 0 {
		return "it names no script"
	}
	script := words[0]
	if strings.Contains(strings.ToLower(r.Script), "by hand") {
		return fmt.Sprintf("its script %q says it was run by hand", r.Script)
	}
	if !strings.HasSuffix(script, ".sh") || filepath.IsAbs(script) || strings.Contains(script, "..") {
		return fmt.Sprintf("its script %q is not a bench script of this repository (bench/NAME.sh, demo/run.sh)", r.Script)
	}
	b, err := os.ReadFile(filepath.Join(root, script))
	if err != nil {
		return fmt.Sprintf("its script %s does not exist", script)
	}
	if !strings.Contains(string(b), "write_results") && !strings.Contains(string(b), "bench/results") {
		return fmt.Sprintf("its script %s writes no results file", script)
	}
	return ""
}

func TestNotScriptWritten(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "bench"), 0o755)
	os.WriteFile(filepath.Join(root, "bench", "x.sh"), []byte(". bench/results.sh\nwrite_results x.json bench/x.sh ...\n"), 0o644)
	os.WriteFile(filepath.Join(root, "bench", "quiet.sh"), []byte("echo measured\n"), 0o644)
	for _, c := range []struct {
		r    results
		want string // "" or a part of the reason
	}{
		{results{Script: "bench/x.sh"}, ""},
		{results{Script: "bench/x.sh (converted by bench/x.jq; same rows)"}, ""},
		{results{Script: "bench/x.sh", Recorded: "Recorded by hand from docs/tune.md"}, "recorded by hand"},
		{results{Script: "jvmfit minmem (a recheck, run by hand)"}, "by hand"},
		{results{Script: "jvmfit tune (resumed)"}, "not a bench script"},
		{results{Script: "bench/gone.sh"}, "does not exist"},
		{results{Script: "bench/quiet.sh"}, "writes no results file"},
		{results{Script: "../bench/x.sh"}, "not a bench script"},
		{results{Script: ""}, "names no script"},
	} {
		got := notScriptWritten(root, c.r)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
