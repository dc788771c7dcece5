package hsperf

import "encoding/binary"

// testEntry describes one entry for encode, a minimal writer of the format
// used to test the parser against known bytes.
type testEntry struct {
	name  string
	long  int64
	str   string // used when isStr
	isStr bool
	units Units
}

func encode(order binary.ByteOrder, entries []testEntry) []byte {
	b := make([]byte, prologueSize)
	copy(b, magic[:])
	if order == binary.LittleEndian {
		b[offByteOrder] = 1
	}
	b[offMajor], b[offMinor], b[offAccessible] = 2, 0, 1
	order.PutUint64(b[offModTime:], 12345)
	order.PutUint32(b[offEntryOffset:], prologueSize)
	order.PutUint32(b[offNumEntries:], uint32(len(entries)))
	for _, e := range entries {
		nameOff := entryHeaderSize
		dataOff := align(nameOff+len(e.name)+1, 8)
		var data []byte
		h := make([]byte, entryHeaderSize)
		if e.isStr {
			data = make([]byte, len(e.str)+8) // NUL padding, as the JVM does
			copy(data, e.str)
			h[offDataType] = TypeByte
			order.PutUint32(h[offVectorLen:], uint32(len(data)))
		} else {
			data = make([]byte, 8)
			order.PutUint64(data, uint64(e.long))
			h[offDataType] = TypeLong
		}
		length := align(dataOff+len(data), 8)
		order.PutUint32(h[offEntryLength:], uint32(length))
		order.PutUint32(h[offNameOffset:], uint32(nameOff))
		order.PutUint32(h[offDataOffset:], uint32(dataOff))
		h[offUnits] = byte(e.units)
		h[offVariability] = byte(Variable)
		ent := make([]byte, length)
		copy(ent, h)
		copy(ent[nameOff:], e.name)
		copy(ent[dataOff:], data)
		b = append(b, ent...)
	}
	order.PutUint32(b[offUsed:], uint32(len(b)))
	// The file is bigger than what is used, like the JVM's fixed-size mapping.
	return append(b, make([]byte, 256)...)
}

func align(n, a int) int { return (n + a - 1) / a * a }
