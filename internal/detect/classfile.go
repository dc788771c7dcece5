package detect

import (
	"encoding/binary"
	"errors"
)

// constants is what a class file's constant pool holds that detection
// reads: every UTF-8 entry (class names, descriptors) and, among them, the
// string literals of the code (CONSTANT_String), in pool order.
type constants struct {
	utf8    []string
	strings []string
}

var errClassFile = errors.New("not a class file")

// readConstants parses a class file's constant pool (JVMS §4.4). Only the
// pool is read; the rest of the class is ignored.
func readConstants(b []byte) (constants, error) {
	var c constants
	if len(b) < 10 || binary.BigEndian.Uint32(b) != 0xCAFEBABE {
		return c, errClassFile
	}
	n := int(binary.BigEndian.Uint16(b[8:]))
	utf8 := make(map[int]string, n)
	var stringIdx []int
	p := 10
	need := func(k int) bool { return p+k <= len(b) }
	for i := 1; i < n; i++ {
		if !need(1) {
			return c, errClassFile
		}
		tag := b[p]
		p++
		switch tag {
		case 1: // Utf8: u2 length, bytes (modified UTF-8; ASCII is what we look for)
			if !need(2) {
				return c, errClassFile
			}
			l := int(binary.BigEndian.Uint16(b[p:]))
			p += 2
			if !need(l) {
				return c, errClassFile
			}
			utf8[i] = string(b[p : p+l])
			p += l
		case 8: // String: u2 index of its Utf8
			if !need(2) {
				return c, errClassFile
			}
			stringIdx = append(stringIdx, int(binary.BigEndian.Uint16(b[p:])))
			p += 2
		case 7, 16, 19, 20: // Class, MethodType, Module, Package
			p += 2
		case 15: // MethodHandle
			p += 3
		case 3, 4, 9, 10, 11, 12, 17, 18: // Integer, Float, refs, NameAndType, (Invoke)Dynamic
			p += 4
		case 5, 6: // Long, Double take two slots
			p += 8
			i++
		default:
			return c, errClassFile
		}
	}
	if p > len(b) {
		return c, errClassFile
	}
	for i := 1; i < n; i++ {
		if s, ok := utf8[i]; ok {
			c.utf8 = append(c.utf8, s)
		}
	}
	for _, i := range stringIdx {
		if s, ok := utf8[i]; ok {
			c.strings = append(c.strings, s)
		}
	}
	return c, nil
}
