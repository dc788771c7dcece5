package probe

import (
	"os"
	"testing"
)

func TestParseCodeCacheFixtures(t *testing.T) {
	for file, want := range map[string]int64{
		"testdata/cc-jdk17-c1.txt":     1016 << 10,           // one CodeCache heap
		"testdata/cc-jdk17-tiered.txt": (1 + 3 + 1033) << 10, // three code heaps
		"testdata/cc-jdk25.txt":        (2 + 3 + 1266) << 10, // heaps, not their total line again
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ParseCodeCache(string(b)); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", file, got, err, want)
		}
	}
	if _, err := ParseCodeCache("21033:\nUnknown diagnostic command\n"); err == nil {
		t.Error("no code heap: no error")
	}
}
