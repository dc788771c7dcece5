package cgroup

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadInt(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"memory.usage_in_bytes": "33554432\n", "memory.max": "max\n", "memory.bad": "12x\n", "memory.empty": "",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := ReadInt(dir, "memory.usage_in_bytes"); n != 32<<20 || err != nil {
		t.Errorf("usage: %d %v", n, err)
	}
	if n, err := ReadInt(dir, "memory.max"); n != -1 || err != nil {
		t.Errorf(`"max": %d %v, want -1`, n, err)
	}
	for _, f := range []string{"memory.bad", "memory.empty"} {
		if _, err := ReadInt(dir, f); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, f)) {
			t.Errorf("%s: error %v, want one naming the file", f, err)
		}
	}
	if _, err := ReadInt(dir, "memory.missing"); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadKeyed(t *testing.T) {
	dir := t.TempDir()
	// v1's memory.stat and oom_control, v2's memory.events: "key value"
	// lines; a line of another shape or a non-integer value is left out.
	body := "cache 26243072\nrss 7073792\nworkingset_refault_file 40\n\nodd line here\nratio 0.5\nhierarchical_memory_limit 9223372036854771712\n"
	if err := os.WriteFile(filepath.Join(dir, "memory.stat"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadKeyed(dir, "memory.stat")
	want := map[string]int64{"cache": 26243072, "rss": 7073792, "workingset_refault_file": 40,
		"hierarchical_memory_limit": 9223372036854771712}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v %v, want %v", got, err, want)
	}
	if m, err := ReadKeyed(dir, "memory.events"); err == nil || m != nil {
		t.Errorf("missing file: %v %v", m, err)
	}
}
