package hsperf

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Parse decodes a perf-data buffer. It never panics: truncated or garbled
// input (e.g. a file caught mid-write) gives an error.
func Parse(b []byte) (*Snapshot, error) {
	if len(b) < prologueSize {
		return nil, fmt.Errorf("hsperfdata: %d bytes, shorter than the %d-byte prologue", len(b), prologueSize)
	}
	if !bytes.Equal(b[:4], magic[:]) {
		return nil, fmt.Errorf("hsperfdata: bad magic %x (want cafec0c0): not a perf-data file", b[:4])
	}
	var order binary.ByteOrder
	switch b[offByteOrder] {
	case 0:
		order = binary.BigEndian
	case 1:
		order = binary.LittleEndian
	default:
		return nil, fmt.Errorf("hsperfdata: bad byte order %d", b[offByteOrder])
	}
	s := &Snapshot{
		Major:        int(b[offMajor]),
		Minor:        int(b[offMinor]),
		Order:        order,
		Accessible:   b[offAccessible] != 0,
		Used:         int32(order.Uint32(b[offUsed:])),
		Overflow:     int32(order.Uint32(b[offOverflow:])),
		ModTimeStamp: int64(order.Uint64(b[offModTime:])),
		entries:      map[string]Entry{},
	}
	if s.Major != 2 {
		return nil, fmt.Errorf("hsperfdata: format version %d.%d not supported (want 2.x)", s.Major, s.Minor)
	}
	if !s.Accessible {
		return nil, ErrNotReady
	}
	used := int(s.Used)
	if used < prologueSize || used > len(b) {
		return nil, fmt.Errorf("hsperfdata: used size %d outside the %d bytes read (truncated?)", s.Used, len(b))
	}
	off := int(int32(order.Uint32(b[offEntryOffset:])))
	n := int(int32(order.Uint32(b[offNumEntries:])))
	if off < prologueSize || off > used {
		return nil, fmt.Errorf("hsperfdata: first entry offset %d outside 32..%d", off, used)
	}
	// Every entry takes at least its header, which bounds the count before we
	// allocate anything for it.
	if n < 0 || n > (used-off)/entryHeaderSize {
		return nil, fmt.Errorf("hsperfdata: %d entries cannot fit in %d bytes", n, used-off)
	}
	s.names = make([]string, 0, n)
	for i := 0; i < n; i++ {
		e, length, err := parseEntry(b[off:used], order)
		if err != nil {
			return nil, fmt.Errorf("hsperfdata: entry %d at offset %d: %w", i, off, err)
		}
		if _, dup := s.entries[e.Name]; !dup {
			s.names = append(s.names, e.Name)
		}
		s.entries[e.Name] = e
		off += length
	}
	return s, nil
}

// parseEntry decodes the entry at the start of b and returns its length.
func parseEntry(b []byte, order binary.ByteOrder) (Entry, int, error) {
	if len(b) < entryHeaderSize {
		return Entry{}, 0, fmt.Errorf("header needs %d bytes, %d left", entryHeaderSize, len(b))
	}
	length := int(int32(order.Uint32(b[offEntryLength:])))
	nameOff := int(int32(order.Uint32(b[offNameOffset:])))
	vecLen := int(int32(order.Uint32(b[offVectorLen:])))
	dataOff := int(int32(order.Uint32(b[offDataOffset:])))
	if length < entryHeaderSize || length > len(b) {
		return Entry{}, 0, fmt.Errorf("length %d outside %d..%d", length, entryHeaderSize, len(b))
	}
	body := b[:length]
	if nameOff < entryHeaderSize || nameOff >= length {
		return Entry{}, 0, fmt.Errorf("name offset %d outside the entry (length %d)", nameOff, length)
	}
	// The name lies before the data in every JVM's layout; a name running
	// into the data is garbage.
	nameEnd := length
	if dataOff > nameOff && dataOff <= length {
		nameEnd = dataOff
	}
	end := bytes.IndexByte(body[nameOff:nameEnd], 0)
	if end <= 0 {
		return Entry{}, 0, fmt.Errorf("name at %d is empty or not NUL-terminated", nameOff)
	}
	e := Entry{
		Name:        string(body[nameOff : nameOff+end]),
		Type:        body[offDataType],
		Flags:       body[offFlags],
		Units:       Units(body[offUnits]),
		Variability: Variability(body[offVariability]),
		VectorLen:   vecLen,
	}
	size, known := typeSizes[e.Type]
	if !known {
		return Entry{}, 0, fmt.Errorf("%s: unknown data type %q", e.Name, e.Type)
	}
	if vecLen < 0 {
		return Entry{}, 0, fmt.Errorf("%s: negative vector length %d", e.Name, vecLen)
	}
	count := vecLen
	if count == 0 {
		count = 1
	}
	if dataOff < entryHeaderSize || dataOff > length || count > (length-dataOff)/size {
		return Entry{}, 0, fmt.Errorf("%s: data (%d × %d bytes at %d) outside the entry (length %d)", e.Name, count, size, dataOff, length)
	}
	data := body[dataOff : dataOff+count*size]
	switch {
	case e.Type == TypeLong && vecLen == 0:
		e.long = int64(order.Uint64(data))
	case e.Type == TypeByte && vecLen > 0:
		// Strings are NUL-padded to the vector's full length.
		if i := bytes.IndexByte(data, 0); i >= 0 {
			data = data[:i]
		}
		e.str = string(data)
	}
	return e, length, nil
}
