package docs_test

import (
	"reflect"
	"testing"
)

// The parsing the doc tests rest on: an escaped pipe stays in its cell, a
// section ends at the next heading, and "`flags` only" scopes a row.
func TestMarkdownRules(t *testing.T) {
	if got := splitRow("| `--engine docker\\|podman` | all five | x |"); !reflect.DeepEqual(got, []string{"`--engine docker|podman`", "all five", "x"}) {
		t.Errorf("splitRow: %q", got)
	}
	doc := "# A\n| flag |\n|---|\n| `--a` |\n## B\n```\n| `--in-fence` |\n```\n| `--b` | `flags` only |\n| `--c` | `exec --x` only |\n# C\n| `--d` |\n"
	lines, ok := section(doc, "## B")
	if !ok {
		t.Fatal("section B not found")
	}
	tbs := tables(lines)
	if len(tbs) != 1 || len(tbs[0].rows) != 1 || tbs[0].header[0] != "`--b`" {
		t.Fatalf("tables of B: %+v (the fence and the next heading must not count)", tbs)
	}
	if !rowIsFor([]string{"`--b`", "`flags` only"}, "flags") || rowIsFor([]string{"`--b`", "`flags` only"}, "exec") {
		t.Error("a `flags` only row must be flags' alone")
	}
	if !rowIsFor([]string{"`--x`", "`jvmfit` only means nothing here"}, "exec") {
		t.Error("only a command's name scopes a row")
	}
	if !listsCommand("all five", "tune") || listsCommand("run, minmem", "tune") || !listsCommand("run, minmem", "minmem") {
		t.Error("listsCommand")
	}
}
