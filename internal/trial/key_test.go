package trial

import (
	"testing"
	"time"
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
