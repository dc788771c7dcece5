package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A database cut short anywhere is refused at Open with one line, and the
// file is not written to; a whole one and an empty file open.
func TestOpenRefusesATruncatedDatabase(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	st, err := Open(whole)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := st.NewExperiment("e", KindRun, nil)
	for i := 0; i < 6; i++ {
		if _, err := st.SaveTrial(id, fixtureResult(i, 300)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	data, _ := os.ReadFile(whole)
	if len(data) < 16<<10 {
		t.Fatalf("fixture database only %d bytes", len(data))
	}
	for _, n := range []int{50, 4096, len(data) / 3, len(data) - 4096} {
		p := filepath.Join(dir, "cut.db")
		os.WriteFile(p, data[:n], 0o644)
		st, err := Open(p)
		if err == nil {
			st.Close()
			t.Errorf("cut at %d of %d bytes: opened", n, len(data))
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, p) || !strings.Contains(msg, "another --db") {
			t.Errorf("cut at %d: %q", n, msg)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, data[:n]) {
			t.Errorf("cut at %d: the file was changed", n)
		}
	}
	for _, p := range []string{whole, filepath.Join(dir, "empty.db")} {
		if p != whole {
			os.WriteFile(p, nil, 0o644)
		}
		st, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(p), err)
		}
		st.Close()
	}
}
