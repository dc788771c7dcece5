package hsperf

import (
	"encoding/binary"
	"math"
	"time"
)

// Snapshot is one decoded read of a perf-data file.
type Snapshot struct {
	Major, Minor int
	Order        binary.ByteOrder
	Accessible   bool
	Used         int32 // bytes of the file in use
	Overflow     int32 // bytes the JVM wanted but could not fit
	ModTimeStamp int64 // ticks; changes when entries are added

	entries map[string]Entry
	names   []string // file order
}

// Entry is one counter or string.
type Entry struct {
	Name        string
	Type        byte // 'J' long, 'B' byte array (string)
	Flags       byte
	Units       Units
	Variability Variability
	VectorLen   int // 0 for a scalar

	long int64
	str  string
}

// IsLong reports whether the entry is a scalar long.
func (e Entry) IsLong() bool { return e.Type == TypeLong && e.VectorLen == 0 }

// IsString reports whether the entry is a byte array (all strings are).
func (e Entry) IsString() bool { return e.Type == TypeByte && e.VectorLen > 0 }

// Long returns a long counter's value.
func (s *Snapshot) Long(name string) (int64, bool) {
	e, ok := s.entries[name]
	if !ok || !e.IsLong() {
		return 0, false
	}
	return e.long, true
}

// String returns a string entry's value, up to its first NUL.
func (s *Snapshot) String(name string) (string, bool) {
	e, ok := s.entries[name]
	if !ok || !e.IsString() {
		return "", false
	}
	return e.str, true
}

// Entry returns an entry with its metadata.
func (s *Snapshot) Entry(name string) (Entry, bool) {
	e, ok := s.entries[name]
	return e, ok
}

// Names lists every entry name in file order (the order the JVM created them).
func (s *Snapshot) Names() []string {
	return append([]string(nil), s.names...)
}

// Len is the number of entries.
func (s *Snapshot) Len() int { return len(s.names) }

// Frequency is the high-resolution timer's ticks per second
// (sun.os.hrt.frequency), 0 when absent.
func (s *Snapshot) Frequency() int64 {
	f, _ := s.Long("sun.os.hrt.frequency")
	return f
}

// Duration converts a tick count to a duration using the JVM's own timer
// frequency. Without a frequency it returns 0.
func (s *Snapshot) Duration(ticks int64) time.Duration {
	f := s.Frequency()
	if f <= 0 {
		return 0
	}
	// Split to keep precision and avoid overflow for long uptimes.
	sec := ticks / f
	rem := ticks % f
	d := float64(sec)*1e9 + float64(rem)*1e9/float64(f)
	if d > math.MaxInt64 || d < math.MinInt64 {
		return 0
	}
	return time.Duration(d)
}

// Ticks returns a tick counter as a duration.
func (s *Snapshot) Ticks(name string) (time.Duration, bool) {
	v, ok := s.Long(name)
	if !ok || s.Frequency() <= 0 {
		return 0, false
	}
	return s.Duration(v), true
}
