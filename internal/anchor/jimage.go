package anchor

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// jimage layout (the JDK's lib/modules): a header of seven native-endian
// u4 (magic, version, flags, resource count, table length, locations
// size, strings size), then the redirect and offset tables (one u4 per
// entry each), the location attribute streams and the strings.
const (
	jimageMagic      = 0xCAFEDADA
	jimageHeaderSize = 7 * 4
	attrEnd          = 0
	attrExtension    = 4
)

// JVMClasses counts the classes in a runtime's lib/modules, as the Paketo
// JRE layer does at build time (BPI_JVM_CLASS_COUNT): entries whose
// extension is "class".
func JVMClasses(javaHome string) (int, error) {
	path := javaHome + "/lib/modules"
	b, err := readJimageIndex(path)
	if err != nil {
		return 0, fmt.Errorf("counting the JDK's classes: %w", err)
	}
	n, err := countJimageClasses(b)
	if err != nil {
		return 0, fmt.Errorf("counting the JDK's classes in %s: %w", path, err)
	}
	return n, nil
}

// readJimageIndex reads the header, tables and strings, not the
// resources behind them (over 100 MB in a full JDK).
func readJimageIndex(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := make([]byte, jimageHeaderSize)
	if _, err := io.ReadFull(f, h); err != nil {
		return nil, fmt.Errorf("%s: too short for a jimage", path)
	}
	u4 := func(off int) int64 { return int64(binary.LittleEndian.Uint32(h[off:])) }
	n := jimageHeaderSize + 8*u4(16) + u4(20) + u4(24)
	if n > 64<<20 {
		return nil, fmt.Errorf("%s: index of %d bytes is not a jimage's", path, n)
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("%s: truncated jimage: %w", path, err)
	}
	return b, nil
}

func countJimageClasses(b []byte) (int, error) {
	if len(b) < jimageHeaderSize {
		return 0, fmt.Errorf("too short for a jimage")
	}
	u4 := func(off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }
	if u4(0) != jimageMagic {
		return 0, fmt.Errorf("not a jimage (magic %#x)", u4(0))
	}
	tableLen, locSize, strSize := int(u4(16)), int(u4(20)), int(u4(24))
	offsets := jimageHeaderSize + 4*tableLen
	locs := offsets + 4*tableLen
	strs := locs + locSize
	if strs+strSize > len(b) {
		return 0, fmt.Errorf("truncated jimage")
	}
	count := 0
	for i := 0; i < tableLen; i++ {
		ext, err := locationExtension(b[locs:strs], int(u4(offsets+4*i)))
		if err != nil {
			return 0, err
		}
		if ext >= 0 && cstring(b[strs:strs+strSize], ext) == "class" {
			count++
		}
	}
	return count, nil
}

// locationExtension walks one location's attributes (a byte of kind<<3 |
// length-1, then the value big-endian) for its extension's string offset;
// -1 if it has none.
func locationExtension(locs []byte, at int) (int, error) {
	for at < len(locs) {
		kind, n := locs[at]>>3, int(locs[at]&7)+1
		if kind == attrEnd {
			return -1, nil
		}
		if at+1+n > len(locs) {
			break
		}
		v := 0
		for _, c := range locs[at+1 : at+1+n] {
			v = v<<8 | int(c)
		}
		if kind == attrExtension {
			return v, nil
		}
		at += 1 + n
	}
	return 0, fmt.Errorf("location attributes run past the table")
}

func cstring(b []byte, at int) string {
	if at < 0 || at >= len(b) {
		return ""
	}
	end := at
	for end < len(b) && b[end] != 0 {
		end++
	}
	return string(b[at:end])
}
