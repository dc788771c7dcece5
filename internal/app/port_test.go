package app

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestPortRangeAvoidsTheEphemeralRange(t *testing.T) {
	cases := []struct{ ephLo, ephHi, lo, hi int }{
		{32768, 60999, 10000, 32767}, // Linux's default: below it
		{12000, 60999, 61000, 65535}, // little room below: above it
		{10500, 65000, 10000, 65535}, // no room either side
	}
	for _, c := range cases {
		if lo, hi := portRange(c.ephLo, c.ephHi); lo != c.lo || hi != c.hi {
			t.Errorf("ephemeral %d-%d: %d-%d, want %d-%d", c.ephLo, c.ephHi, lo, hi, c.lo, c.hi)
		}
	}
	dir := t.TempDir()
	for text, want := range map[string][2]int{"20000\t40000\n": {20000, 40000}, "junk": {32768, 60999}, "9 3": {32768, 60999}} {
		f := filepath.Join(dir, "range")
		os.WriteFile(f, []byte(text), 0o644)
		if lo, hi := readEphemeral(f); lo != want[0] || hi != want[1] {
			t.Errorf("%q: %d-%d, want %v", text, lo, hi, want)
		}
	}
}

func TestFreePortIsOutsideTheEphemeralRangeAndFree(t *testing.T) {
	eLo, eHi := readEphemeral(ephemeralFile)
	for range 20 {
		p, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if p >= eLo && p <= eHi {
			t.Fatalf("port %d is in the ephemeral range %d-%d", p, eLo, eHi)
		}
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("FreePort gave %d, which cannot be bound: %v", p, err)
		}
		l.Close()
	}
}

// A port some process listens on, on loopback only, is not bindable for an
// app that binds every address.
func TestBindableRefusesAnOccupiedPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := bindable(l.Addr().(*net.TCPAddr).Port); err == nil {
		t.Fatalf("port %d is taken, yet bindable", l.Addr().(*net.TCPAddr).Port)
	}
}
