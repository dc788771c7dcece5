package hsperf

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds garbled perf data to the parser: it must never panic, and
// whatever it accepts must be readable through the whole API.
func FuzzParse(f *testing.F) {
	f.Add(encode(binary.LittleEndian, sample))
	f.Add(encode(binary.BigEndian, sample))
	f.Add([]byte{0xCA, 0xFE, 0xC0, 0xC0})
	files, _ := filepath.Glob("testdata/*.hsperf")
	for _, name := range files[:min(len(files), 4)] {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse(b)
		if err != nil {
			return
		}
		for _, n := range s.Names() {
			if _, ok := s.Entry(n); !ok {
				t.Fatalf("listed entry %q not found", n)
			}
			s.Long(n)
			s.String(n)
			s.Ticks(n)
		}
		j := s.JVM()
		if j.HeapMax < 0 && j.Policy == "" && len(j.Collectors) > 8 {
			t.Fatal("impossible view")
		}
	})
}
