package trial

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
)

func TestKeyIsStableAndDiscriminating(t *testing.T) {
	base := func() Spec {
		return Spec{App: "a.yaml", AppName: "a", Java: "/j", JDKVersion: 17, JVM: "default",
			MemoryBytes: 256 << 20, CPUs: 1, Rate: 100, Duration: 30 * time.Second,
			Vars: map[string]string{"a": "1", "b": "2", "c": "3", "d": "4"}}
	}
	k := base().Key()
	if len(k) != 32 {
		t.Fatalf("key %q: want 32 hex digits", k)
	}
	for i := 0; i < 20; i++ { // map iteration order must not leak into the key
		s := base()
		s.Vars = map[string]string{"d": "4", "c": "3", "b": "2", "a": "1"}
		if got := s.Key(); got != k {
			t.Fatalf("same spec, different key: %s vs %s", got, k)
		}
	}
	changes := map[string]func(*Spec){
		"memory": func(s *Spec) { s.MemoryBytes += 8 << 20 },
		"cpus":   func(s *Spec) { s.CPUs = 2 },
		"rate":   func(s *Spec) { s.Rate = 200 },
		"jvm":    func(s *Spec) { s.JVM = "jvmfit" },
		"jdk":    func(s *Spec) { s.JDKVersion = 21 },
		"repeat": func(s *Spec) { s.Repeat = 1 },
		"var":    func(s *Spec) { s.Vars["a"] = "9" },
		"opts":   func(s *Spec) { s.JVMOptions = []string{"-Xmx64m"} },
	}
	for name, change := range changes {
		s := base()
		change(&s)
		if s.Key() == k {
			t.Errorf("changing %s kept the key", name)
		}
	}
}

// A sweep must not reuse a cell whose descriptor changed: the database's
// limit, for one, is part of what the trial measured.
func TestKeyFollowsTheDescriptor(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.yaml"), []byte("name: s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(dbMemory string) *app.App {
		t.Helper()
		return hostJarApp(t, dir, "scenario: s.yaml\nservices: [{name: db, kind: postgres, memory: "+dbMemory+", cpus: 1}]\n")
	}
	spec := Spec{MemoryBytes: 256 << 20, CPUs: 1}
	a1, err := Prepare(spec, write("256Mi"), "")
	if err != nil {
		t.Fatalf("prepare with the default java: %v", err)
	}
	a2, err := Prepare(spec, write("512Mi"), "")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Prepare(spec, write("256Mi"), "")
	if a1.Key() == a2.Key() {
		t.Error("changing the database's limit kept the trial's key")
	}
	if a1.Key() != again.Key() {
		t.Error("the same descriptor gave two keys")
	}
}

// Where a trial ran (its placement beside others) is not which trial it
// is; the cpuset the user asked for is.
func TestKeyLeavesThePlacementOut(t *testing.T) {
	s := Spec{App: "a.yaml", JVM: "default", MemoryBytes: 256 << 20, CPUs: 1}
	k := s.Key()
	s.Placement = "2-3"
	if s.Key() != k || s.AppCPUSet() != "2-3" {
		t.Errorf("placement: key changed %v, app cpuset %q", s.Key() != k, s.AppCPUSet())
	}
	s.CPUSet = "0"
	if s.Key() == k || s.AppCPUSet() != "0" {
		t.Errorf("cpuset: key kept %v, app cpuset %q", s.Key() == k, s.AppCPUSet())
	}
}
