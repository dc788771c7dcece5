package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReportTempFileNotPredictable: a link planted at the name beside the
// report that a writer would guess (report.tmp) is neither written
// through nor moved into the report's place.
func TestReportTempFileNotPredictable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.csv")
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("not jvmfit's"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path+".tmp"); err != nil {
		t.Fatal(err)
	}
	if err := writeReport(path, "csv", book{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "not jvmfit's" {
		t.Errorf("the file a planted %s.tmp points to was written: %q", filepath.Base(path), b)
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 {
		t.Errorf("report %s: %v, mode %v: want a regular file, 0644", path, err, st.Mode())
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 3 {
		t.Errorf("files beside the report: %v, want report.csv, the planted link and its target", left)
	}
}
