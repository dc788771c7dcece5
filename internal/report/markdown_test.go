package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMarkdownGolden(t *testing.T) {
	db := fixtureDB(t)
	for _, name := range []string{"minmem-filecache", "sweep-filecache", "compare-seed001", "minmem-styles"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Markdown(&buf, loadInput(t, db, name)); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".md")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run: go test ./internal/report -run Golden -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from %s (rerun with -update if the change is intended):\n%s", name, golden, buf.String())
			}
		})
	}
}
