// Package hsperf reads HotSpot's perf-data files (/tmp/hsperfdata_<user>/<pid>),
// the shared-memory counters that jstat reads, so that jvmfit can watch a JVM's
// heap, GC and threads with no agent and no attach.
//
// Layout (HotSpot perfMemory.hpp / perfData.hpp, format 2.0): a 32-byte
// prologue, then self-describing entries, each with its own header, a
// NUL-terminated name and its data.
package hsperf

import "errors"

// The magic number is written so that its bytes read CA FE C0 C0 whatever the
// byte order of the rest of the file.
var magic = [4]byte{0xCA, 0xFE, 0xC0, 0xC0}

const (
	prologueSize    = 32
	entryHeaderSize = 20
)

// Prologue offsets.
const (
	offByteOrder   = 4
	offMajor       = 5
	offMinor       = 6
	offAccessible  = 7
	offUsed        = 8
	offOverflow    = 12
	offModTime     = 16
	offEntryOffset = 24
	offNumEntries  = 28
)

// Entry header offsets, relative to the entry's start.
const (
	offEntryLength = 0
	offNameOffset  = 4
	offVectorLen   = 8
	offDataType    = 12
	offFlags       = 13
	offUnits       = 14
	offVariability = 15
	offDataOffset  = 16
)

// Data types (JVM type signature characters). Only longs and byte arrays are
// written by current JVMs; the others are recognised so that they are skipped
// rather than rejected.
const (
	TypeLong byte = 'J'
	TypeByte byte = 'B'
)

var typeSizes = map[byte]int{
	'B': 1, 'Z': 1, 'C': 2, 'S': 2, 'I': 4, 'F': 4, 'J': 8, 'D': 8,
}

// Units of a counter (perfData.hpp PerfData::Units).
type Units byte

const (
	UnitsNone   Units = 1
	UnitsBytes  Units = 2
	UnitsTicks  Units = 3
	UnitsEvents Units = 4
	UnitsString Units = 5
	UnitsHertz  Units = 6
)

// Variability of a counter (perfData.hpp PerfData::Variability).
type Variability byte

const (
	Constant  Variability = 1
	Monotonic Variability = 2
	Variable  Variability = 3
)

// ErrNotReady means the JVM has not yet marked its perf data accessible (it is
// still starting); try again later.
var ErrNotReady = errors.New("hsperfdata not yet accessible (JVM still starting)")
