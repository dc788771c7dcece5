package tune

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The search does not know the Session: one adapter file imports
// internal/experiment, and every other file of tune talks only to the
// Trials interface.
func TestOnlyTheAdapterImportsExperiment(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 5 {
		t.Fatalf("tune's files: %v, %v", files, err)
	}
	var importers []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "github.com/jvmfit/jvmfit/internal/experiment" {
				importers = append(importers, f)
			}
		}
	}
	if len(importers) != 1 || importers[0] != "session.go" {
		t.Errorf("files importing internal/experiment: %v; want only session.go", importers)
	}
}
