package hsperf

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var sample = []testEntry{
	{name: "sun.os.hrt.frequency", long: 1_000_000_000, units: UnitsHertz},
	{name: "sun.gc.collector.0.time", long: 2_500_000_000, units: UnitsTicks},
	{name: "sun.gc.collector.0.invocations", long: 7, units: UnitsEvents},
	{name: "sun.gc.collector.0.name", str: "Copy", isStr: true, units: UnitsString},
	{name: "java.threads.live", long: 11},
	{name: "neg", long: -42},
}

func TestParseBothByteOrders(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		s, err := Parse(encode(order, sample))
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if s.Order != order || s.Major != 2 || !s.Accessible || s.ModTimeStamp != 12345 {
			t.Errorf("%v: prologue %+v", order, s)
		}
		if v, ok := s.Long("java.threads.live"); !ok || v != 11 {
			t.Errorf("%v: threads = %d %v", order, v, ok)
		}
		if v, _ := s.Long("neg"); v != -42 {
			t.Errorf("%v: negative long = %d", order, v)
		}
		if v, ok := s.String("sun.gc.collector.0.name"); !ok || v != "Copy" {
			t.Errorf("%v: name = %q %v", order, v, ok)
		}
		if _, ok := s.Long("sun.gc.collector.0.name"); ok {
			t.Errorf("%v: a string read as a long", order)
		}
		if _, ok := s.String("java.threads.live"); ok {
			t.Errorf("%v: a long read as a string", order)
		}
		if _, ok := s.Long("absent"); ok {
			t.Errorf("%v: absent counter found", order)
		}
		names := s.Names()
		if len(names) != len(sample) || names[0] != "sun.os.hrt.frequency" || names[5] != "neg" {
			t.Errorf("%v: names %v", order, names)
		}
		if d, ok := s.Ticks("sun.gc.collector.0.time"); !ok || d != 2500*time.Millisecond {
			t.Errorf("%v: ticks = %v %v", order, d, ok)
		}
		if e, _ := s.Entry("sun.gc.collector.0.time"); e.Units != UnitsTicks || e.Variability != Variable {
			t.Errorf("%v: metadata %+v", order, e)
		}
	}
}

func TestDurationUsesTheJVMFrequency(t *testing.T) {
	s, err := Parse(encode(binary.LittleEndian, []testEntry{
		{name: "sun.os.hrt.frequency", long: 2_400_000},
		{name: "t", long: 3_600_000},                 // 1.5 s at 2.4 MHz
		{name: "big", long: 2_400_000 * 86400 * 365}, // a year, no overflow
	}))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := s.Ticks("t"); d != 1500*time.Millisecond {
		t.Errorf("1.5 s at 2.4 MHz = %v", d)
	}
	if d, _ := s.Ticks("big"); d != 365*24*time.Hour {
		t.Errorf("a year = %v", d)
	}
	none, _ := Parse(encode(binary.LittleEndian, []testEntry{{name: "t", long: 5}}))
	if _, ok := none.Ticks("t"); ok {
		t.Error("ticks converted without a frequency")
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	good := encode(binary.LittleEndian, sample)
	mutate := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	le := binary.LittleEndian
	firstEntry := prologueSize
	cases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":        {nil, "shorter than"},
		"bad magic":    {mutate(func(b []byte) { b[0] = 0 }), "bad magic"},
		"byte order":   {mutate(func(b []byte) { b[offByteOrder] = 7 }), "byte order"},
		"version":      {mutate(func(b []byte) { b[offMajor] = 1 }), "version 1.0"},
		"used too big": {mutate(func(b []byte) { le.PutUint32(b[offUsed:], 1<<30) }), "used size"},
		"entry offset": {mutate(func(b []byte) { le.PutUint32(b[offEntryOffset:], 4) }), "first entry offset"},
		"too many":     {mutate(func(b []byte) { le.PutUint32(b[offNumEntries:], 1<<31-1) }), "cannot fit"},
		"negative":     {mutate(func(b []byte) { le.PutUint32(b[offNumEntries:], 1<<32-1) }), "cannot fit"},
		"entry length": {mutate(func(b []byte) { le.PutUint32(b[firstEntry+offEntryLength:], 3) }), "length 3"},
		"name offset":  {mutate(func(b []byte) { le.PutUint32(b[firstEntry+offNameOffset:], 1000) }), "name offset"},
		"no NUL": {mutate(func(b []byte) {
			for i := firstEntry + entryHeaderSize; i < firstEntry+48; i++ {
				b[i] = 'x'
			}
		}), "NUL"},
		"data type":   {mutate(func(b []byte) { b[firstEntry+offDataType] = 'Q' }), "unknown data type"},
		"data offset": {mutate(func(b []byte) { le.PutUint32(b[firstEntry+offDataOffset:], 60) }), "outside the entry"},
		"vector":      {mutate(func(b []byte) { le.PutUint32(b[firstEntry+offVectorLen:], 1<<31) }), "negative vector"},
	}
	for name, c := range cases {
		_, err := Parse(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, c.want)
		}
	}
	notReady := mutate(func(b []byte) { b[offAccessible] = 0 })
	if _, err := Parse(notReady); !errors.Is(err, ErrNotReady) {
		t.Errorf("inaccessible file: %v, want ErrNotReady", err)
	}
}

// Every truncation of a valid file (a read racing the JVM's growth) must
// either parse or fail cleanly.
func TestParseEveryTruncation(t *testing.T) {
	good := encode(binary.BigEndian, sample)
	used := int(binary.BigEndian.Uint32(good[offUsed:]))
	for n := 0; n < len(good); n++ {
		s, err := Parse(good[:n])
		if n < used && err == nil {
			t.Fatalf("%d of %d used bytes parsed without error", n, used)
		}
		if n >= used && (err != nil || s.Len() != len(sample)) {
			t.Fatalf("%d bytes: %v", n, err)
		}
	}
}

func TestReadFileRetriesATornRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "4242")
	good := encode(binary.LittleEndian, sample)
	if err := os.WriteFile(path, good[:40], 0o600); err != nil {
		t.Fatal(err)
	}
	// The JVM finishes writing while we retry (the retry window is ~100 ms).
	go func() {
		time.Sleep(15 * time.Millisecond)
		tmp := path + ".tmp"
		os.WriteFile(tmp, good, 0o600)
		os.Rename(tmp, path)
	}()
	s, err := ReadFile(path)
	if err != nil {
		t.Fatalf("torn then complete file: %v", err)
	}
	if v, _ := s.Long("java.threads.live"); v != 11 {
		t.Errorf("threads = %d", v)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	torn := filepath.Join(dir, "torn")
	os.WriteFile(torn, encode(binary.LittleEndian, sample)[:50], 0o600)
	if _, err := ReadFile(torn); err == nil || !strings.Contains(err.Error(), torn) {
		t.Errorf("truncated file: %v, want an error naming the file", err)
	}
	starting := filepath.Join(dir, "starting")
	b := encode(binary.LittleEndian, sample)
	b[offAccessible] = 0
	os.WriteFile(starting, b, 0o600)
	if _, err := ReadFile(starting); !errors.Is(err, ErrNotReady) {
		t.Errorf("starting JVM: %v", err)
	}
}
